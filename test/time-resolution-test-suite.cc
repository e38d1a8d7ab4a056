/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The fabric helpers refuse to install at a time resolution other than picoseconds:
 * RoceFabricHelper::Install and IbFabricHelper::Install stop with one message naming
 * the resolution and the call that fixes it (Time::SetResolution(Time::PS)).
 *
 * ns-3 sets the resolution once per process, and the other suites (the runner's
 * UsePicoseconds) set picoseconds. So the case runs a fresh copy of this test
 * runner (/proc/self/exe) whose only suite, registered just in that child (an
 * environment variable), installs a fabric at ns-3's default resolution, NS, and
 * reads what the child printed and how it ended.
 */
#include "ai-fabric-test-compat.h"

#include "ns3/ib-fabric-helper.h"
#include "ns3/nstime.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/routing-engine.h"
#include "ns3/test.h"
#include "ns3/topology-graph.h"

#include <array>
#include <cstdlib>
#include <iostream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

using namespace ns3;

namespace
{

/// Environment variable naming the fabric the child installs ("rocev2", "infiniband").
constexpr const char* CHILD_ENV = "AI_FABRIC_TIME_RESOLUTION_CHILD";
/// The child's suite name, a constant rather than a literal in the constructor call:
/// the build's suite list (names read from the sources) must not run it on its own.
constexpr const char* CHILD_SUITE = "ai-fabric-time-resolution-child";

/// In the child: install \p fabric on two hosts and a switch at the default resolution.
class InstallAtDefaultResolutionTestCase : public TestCase
{
  public:
    InstallAtDefaultResolutionTestCase()
        : TestCase("install a fabric without Time::SetResolution(Time::PS)")
    {
    }

  private:
    void DoRun() override
    {
        const std::string fabric = std::getenv(CHILD_ENV);
        Ptr<TopologyGraph> g = Create<TopologyGraph>();
        const uint32_t sw = g->AddSwitch();
        for (int i = 0; i < 2; ++i)
        {
            g->AddLink(g->AddHost(), sw, DataRate("100Gbps"), MicroSeconds(1));
        }
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        if (fabric == "infiniband")
        {
            IbFabricHelper().Install(g, routes);
        }
        else
        {
            RoceFabricHelper().Install(g, routes);
        }
        // Reached only if Install accepted the resolution.
        std::cout << "installed at resolution " << static_cast<int>(Time::GetResolution())
                  << std::endl;
    }
};

/// The child's suite.
class TimeResolutionChildSuite : public TestSuite
{
  public:
    TimeResolutionChildSuite()
        : TestSuite(CHILD_SUITE, AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new InstallAtDefaultResolutionTestCase, AI_FABRIC_QUICK);
    }
};

/// Registers the child's suite in the child only.
struct ChildSuiteRegistration
{
    ChildSuiteRegistration()
    {
        if (std::getenv(CHILD_ENV) != nullptr)
        {
            static TimeResolutionChildSuite suite;
        }
    }
} g_childSuiteRegistration;

/// What the child printed (stdout and stderr together) and how it ended.
struct ChildResult
{
    std::string output;
    int status{0}; //!< waitpid status
};

ChildResult
RunChild(const std::string& fabric)
{
    ChildResult r;
    int fds[2];
    if (pipe(fds) != 0)
    {
        r.output = "pipe failed";
        return r;
    }
    const pid_t pid = fork();
    if (pid == 0)
    {
        close(fds[0]);
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        close(fds[1]);
        setenv(CHILD_ENV, fabric.c_str(), 1);
        const std::string suite = std::string("--suite=") + CHILD_SUITE;
        execl("/proc/self/exe", "ai-fabric-test-runner", suite.c_str(), nullptr);
        _exit(127);
    }
    close(fds[1]);
    std::array<char, 4096> buf;
    ssize_t n;
    while ((n = read(fds[0], buf.data(), buf.size())) > 0)
    {
        r.output.append(buf.data(), static_cast<size_t>(n));
    }
    close(fds[0]);
    waitpid(pid, &r.status, 0);
    return r;
}

/// Both helpers stop at NS resolution with the message, and not otherwise.
class TimeResolutionTestCase : public TestCase
{
  public:
    TimeResolutionTestCase()
        : TestCase("fabric helpers stop with one message unless the resolution is PS")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(RdmaFabricHelper::TimeResolutionProblem(Time::PS, "X"),
                              "",
                              "picoseconds are accepted");
        NS_TEST_ASSERT_MSG_EQ(
            (RdmaFabricHelper::TimeResolutionProblem(Time::FS, "X").find("Time::FS") !=
             std::string::npos),
            true,
            "femtoseconds are refused too");
        for (const std::string fabric : {"rocev2", "infiniband"})
        {
            const std::string who =
                fabric == "rocev2" ? "RoceFabricHelper::Install" : "IbFabricHelper::Install";
            const ChildResult r = RunChild(fabric);
            std::cout << fabric << " at NS resolution: "
                      << (WIFSIGNALED(r.status) ? "signal " + std::to_string(WTERMSIG(r.status))
                          : WIFEXITED(r.status) ? "exit " + std::to_string(WEXITSTATUS(r.status))
                                                : std::string("?"))
                      << "\n"
                      << r.output << std::endl;
            NS_TEST_ASSERT_MSG_EQ((WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0),
                                  false,
                                  fabric << ": the child stopped");
            NS_TEST_ASSERT_MSG_EQ((r.output.find("installed at resolution") == std::string::npos),
                                  true,
                                  fabric << ": Install did not return");
            NS_TEST_ASSERT_MSG_EQ(
                (r.output.find(RdmaFabricHelper::TimeResolutionProblem(Time::NS, who)) !=
                 std::string::npos),
                true,
                fabric << ": the message names " << who << ", Time::NS and the fix:\n"
                       << r.output);
            NS_TEST_ASSERT_MSG_EQ(
                (r.output.find("Call Time::SetResolution(Time::PS)") != std::string::npos),
                true,
                fabric << ": what to call");
        }
    }
};

/// The suite.
class TimeResolutionTestSuite : public TestSuite
{
  public:
    TimeResolutionTestSuite()
        : TestSuite("ai-fabric-time-resolution", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new TimeResolutionTestCase, AI_FABRIC_QUICK);
    }
};

static TimeResolutionTestSuite g_timeResolutionTestSuite;

} // namespace
