# Debian packages: `cpack -G DEB` in the build directory makes
#   azbench-agent_<version>_<arch>.deb  the agent binary, its systemd unit, /etc/azbench/agent.yaml
#                                       (a conffile), a postinst that creates the azbench user
#   azbench_<version>_<arch>.deb        the coordinator CLI and the example campaigns
# Both install README.md and docs/ under /usr/share/doc/<package>/ (README.md links to docs/ by
# relative path, so the two stay side by side); either package alone carries the whole manual.
# Dependencies come from dpkg-shlibdeps, so the packages install on Debian 12 with apt.
install(TARGETS azbench-agent RUNTIME DESTINATION bin COMPONENT agent)
install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/deploy/systemd/azbench-agent.service
        DESTINATION /lib/systemd/system COMPONENT agent)
install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/deploy/systemd/agent.yaml DESTINATION /etc/azbench
        COMPONENT agent)
install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/README.md DESTINATION share/doc/azbench-agent
        COMPONENT agent)
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/docs/ DESTINATION share/doc/azbench-agent/docs
        COMPONENT agent)
install(TARGETS azbench RUNTIME DESTINATION bin COMPONENT coordinator)
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/examples/ DESTINATION share/azbench/examples
        COMPONENT coordinator)
install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/README.md DESTINATION share/doc/azbench
        COMPONENT coordinator)
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/docs/ DESTINATION share/doc/azbench/docs
        COMPONENT coordinator)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME azbench)
set(CPACK_PACKAGE_VENDOR "azbench")
set(CPACK_PACKAGE_CONTACT "azbench maintainers <azbench@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "distributed, multi-AZ shared file storage benchmark")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL agent coordinator)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_AGENT_PACKAGE_NAME azbench-agent)
set(CPACK_DEBIAN_AGENT_PACKAGE_DEPENDS "passwd")
set(CPACK_DEBIAN_AGENT_PACKAGE_CONTROL_EXTRA
    ${CMAKE_CURRENT_SOURCE_DIR}/deploy/debian/postinst ${CMAKE_CURRENT_SOURCE_DIR}/deploy/debian/prerm
    ${CMAKE_CURRENT_SOURCE_DIR}/deploy/debian/postrm ${CMAKE_CURRENT_SOURCE_DIR}/deploy/debian/conffiles)
set(CPACK_COMPONENT_AGENT_DESCRIPTION
    "azbench agent: gRPC server that runs storage benchmark jobs (systemd service)")
set(CPACK_DEBIAN_COORDINATOR_PACKAGE_NAME azbench)
set(CPACK_COMPONENT_COORDINATOR_DESCRIPTION
    "azbench coordinator: runs benchmark campaigns across agents, stores and reports results")
include(CPack)

# Deployment tests. deploy_debian_package: builds both packages, installs them with dpkg on this machine, checks files,
# user and unit, and purges them again (tests/deploy/package_test.sh). Exit 77 = skipped.
if(AZBENCH_BUILD_TESTS)
  add_test(NAME deploy_debian_package
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tests/deploy/package_test.sh
                   ${CMAKE_BINARY_DIR} ${CMAKE_CURRENT_SOURCE_DIR})
  set_tests_properties(deploy_debian_package PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77 RUN_SERIAL ON)
  # deploy_cdk: compiles the CDK app, runs its template tests (node:test) and `cdk synth` with
  # cdk-nag, without AWS credentials. Needs the npm packages scripts/setup.sh installs.
  add_test(NAME deploy_cdk COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tests/deploy/cdk_test.sh
                                   ${CMAKE_CURRENT_SOURCE_DIR}/deploy/cdk $<TARGET_FILE:azbench>)
  set_tests_properties(deploy_cdk PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77)
  # deploy_cloud_init: the agent user-data parses, passes `cloud-init schema` and a structure test.
  add_test(NAME deploy_cloud_init COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tests/deploy/cloud_init_test.sh
                                          ${CMAKE_CURRENT_SOURCE_DIR} $<TARGET_FILE:azbench-agent>)
  set_tests_properties(deploy_cloud_init PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77)
endif()
