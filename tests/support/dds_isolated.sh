#!/usr/bin/env bash
# Runs a command with a DDS discovery tag of its own (see tests/support/catch_main.cpp): for the
# CTests that start example programs over DDS, so two test runs on one machine stay apart.
export PRAXIS_DDS_TAG=${PRAXIS_DDS_TAG:-praxis-test-$$-$RANDOM$RANDOM}
exec "$@"
