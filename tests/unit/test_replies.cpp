// The agent's replies as tct declares them (src/*/reply.hpp) against the lists the agent writes
// them from (python/tct_agent/replies.json): a field renamed on one side only fails here.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/reply.hpp"
#include "core/fields.hpp"
#include "core/reply.hpp"
#include "expect/reply.hpp"
#include "explain/reply.hpp"
#include "startup/reply.hpp"

namespace {

using tct::core::fields::names_of;
using Names = std::vector<std::string>;

template <class... T>
Names names() {
  Names out;
  (
      [&] {
        for (auto n : names_of<T>()) out.emplace_back(n);
      }(),
      ...);
  return out;
}

// Each reply the C++ side decodes, by the agent's name for it; a reply read as two structs
// (bench.memory_peak: a bench.memory reading and the memory held now) lists both, and a reply
// that maps names to objects (explain.registry) the objects' fields.
std::map<std::string, Names> declared() {
  namespace b = tct::bench::reply;
  namespace c = tct::core::reply;
  namespace s = tct::startup::reply;
  namespace e = tct::expect::reply;
  namespace x = tct::explain::reply;
  return {
      {"bench.env", names<b::Env>()},
      {"bench.env clock", names<b::Clock>()},
      {"bench.allocator", names<b::Allocator>()},
      {"bench.allocator mapped", names<b::MappedAllocator>()},
      {"bench.eager_warmup", names<b::EagerWarmup>()},
      {"bench.memory", names<b::Memory>()},
      {"bench.memory_peak", names<b::Memory, b::MemoryNow>()},
      {"bench.first_calls", names<b::FirstCalls>()},
      {"bench.first_calls counters", names<b::Counters>()},
      {"bench.first_calls counters graph_break_reasons", names<b::BreakReason>()},
      {"bench.time_block", names<b::TimeBlock>()},
      {"bench.aoti_load", names<b::AotiLoad>()},
      {"bench.check", names<b::Check>()},
      {"bench.check compiled_vs_eager", names<b::LeafFact>()},
      {"bench.check compiled_vs_eager reference", names<b::LeafReferenceFacts>()},
      {"bench.check reference", names<b::Reference>()},
      {"bench.check cost_ns", names<b::Costs>()},
      {"breakdown.sample", names<b::Sample>()},
      {"breakdown.sample calls", names<b::SampleCall>()},
      {"breakdown.chain", names<b::Chain>()},
      {"breakdown.chain frames", names<b::ChainFrame>()},
      {"breakdown.chain frames entries", names<b::ChainEntry>()},
      {"breakdown.fix_available", names<b::FixAvailable>()},
      {"breakdown.fix_prepare", names<b::FixPrepare>()},
      {"breakdown.fix_block", names<b::TimeBlock, b::FixError>()},
      {"explain.run", names<x::Run>()},
      {"explain.run logged", names<x::Logged>()},
      {"explain.run logged code_names", names<x::CodeName>()},
      {"explain.run logged share_pairs", names<x::SharePairs>()},
      {"explain.run explain", names<x::Explain>()},
      {"explain.run explain break_reasons", names<x::BreakReason>()},
      {"explain.run explain break_reasons frames", names<x::StackFrame>()},
      {"explain.run code_dirs", names<tct::core::CodeDirs>()},
      {"explain.registry", names<x::RegistryEntry>()},
      {"expect.profile", names<e::Profile>()},
      {"expect.profile calls", names<e::ProfiledCall>()},
      {"expect.profile op_names", names<e::OpNameFacts>()},
      {"expect.flops", names<e::Flops>()},
      {"expect.flops ops", names<e::FlopOp>()},
      {"expect.device_info", names<e::DeviceInfo>()},
      {"expect.ceilings", names<e::CeilingTimings>()},
      {"target.load", names<c::TargetLoad>()},
      {"target.load inputs", names<c::TargetInput>()},
      {"startup.libtorch", names<c::Libtorch>()},
      {"startup.package", names<c::Package>()},
      {"startup.compare", names<s::Compare>()},
      {"startup.first_output", names<s::FirstOutput>()},
      {"startup.first_output saved_artifacts", names<s::SavedArtifacts>()},
  };
}

std::map<std::string, Names> agent_lists() {
  std::ifstream f(std::filesystem::path(TCT_SOURCE_DIR) / "python" / "tct_agent" / "replies.json");
  const auto j = nlohmann::json::parse(f);
  std::map<std::string, Names> out;
  for (const auto& [name, list] : j.items())
    if (name.rfind('_', 0) != 0) out[name] = list.get<Names>();
  return out;
}

}  // namespace

TEST(Replies, EachDeclarationHasTheAgentsFieldsInItsOrder) {
  const auto agent = agent_lists();
  const auto tct = declared();
  for (const auto& [name, fields] : tct) {
    auto it = agent.find(name);
    ASSERT_NE(it, agent.end()) << name << " is declared in C++ but python/tct_agent/replies.json has no list of it";
    EXPECT_EQ(fields, it->second) << "the fields of " << name;
  }
  for (const auto& [name, fields] : agent)
    EXPECT_TRUE(tct.count(name)) << name << " is listed for the agent but declared nowhere in C++";
}

TEST(Replies, AMissingOrMistypedFieldKeepsItsInitializer) {
  using tct::core::fields::read_as;
  const auto env = read_as<tct::bench::reply::Env>(nlohmann::json{{"cpus", "four"}, {"backends", {"inductor"}}});
  EXPECT_EQ(env.cpus, 0);
  EXPECT_EQ(env.device_type, "cpu");
  EXPECT_EQ(env.backends, std::vector<std::string>{"inductor"});
  EXPECT_FALSE(env.clock);
  const auto block = read_as<tct::bench::reply::TimeBlock>(nlohmann::json{{"loadavg_1m", nullptr}});
  EXPECT_TRUE(std::isnan(block.loadavg_1m));
  EXPECT_TRUE(std::isnan(block.wall_ns));
  const auto peak = tct::bench::reply::memory_peak_from({{"peak_bytes", 5}, {"current_bytes", nullptr}});
  EXPECT_EQ(peak.reading.peak_bytes, 5);
  EXPECT_FALSE(peak.now.current_bytes);
}
