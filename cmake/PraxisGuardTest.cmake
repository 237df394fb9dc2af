# praxis_guard_test(<name> <signal> <controller> <fake> <robot> <domain> <check>): a CTest case of
# tests/support/guard_test.sh, which kills (KILL) or stops for good (STOP) <controller> while it has
# <robot> of <fake> on DDS <domain>, and passes when praxis-guard sent the safe state <check> names.
function(praxis_guard_test name sig controller fake robot domain check)
  add_test(NAME "${name}"
    COMMAND bash ${PROJECT_SOURCE_DIR}/tests/support/guard_test.sh ${controller} ${fake} ${robot} ${domain} ${sig} ${check})
  set_tests_properties("${name}" PROPERTIES
    PASS_REGULAR_EXPRESSION "PASS: SIG${sig}: praxis-guard sent the safe state" TIMEOUT 120)
endfunction()
