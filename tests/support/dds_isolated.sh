#!/usr/bin/env bash
# Runs a command with a DDS discovery tag of its own (see tests/support/catch_main.cpp): for the
# CTests that start example programs over DDS, so two test runs on one machine stay apart. The fake
# robots the program starts end if it dies (examples/common/parent_watch.hpp).
export PRAXIS_DDS_TAG=${PRAXIS_DDS_TAG:-praxis-test-$$-$RANDOM$RANDOM}
export PRAXIS_EXIT_WITH_PARENT=${PRAXIS_EXIT_WITH_PARENT:-1}
exec "$@"
