#pragma once
// BenchResult <-> doc["bench"] (schema/bench.schema.json): the one place the section is
// written, and its reader (compare and suite read saved rows through it; expect takes the typed
// BenchResult). to_json(from_json(section)) gives back, byte for byte, a section this
// version wrote; from_json also reads older documents of the same schema (fields added since
// are absent there, see result.hpp) and never throws on a missing or mistyped field.
#include <optional>

#include <nlohmann/json.hpp>

#include "bench/result.hpp"

namespace tct::bench {

nlohmann::json to_json(const BenchResult& result);
BenchResult from_json(const nlohmann::json& section);

nlohmann::json to_json(const BenchRow& row);
BenchRow row_from_json(const nlohmann::json& row);

// A row's correctness (bench/correctness.hpp) as the document holds it, the agent's memory
// figures (none when it gave no object), and the other parts written on their own.
Correctness correctness_from_json(const nlohmann::json& report);
std::optional<MemoryReading> memory_reading_from_json(const nlohmann::json& reading);
nlohmann::json to_json(const Correctness& c);
nlohmann::json to_json(const Speedup& s);
nlohmann::json to_json(const RowError& e);
// section["allocator"] (bench/allocator_comparison.hpp), for the round-trip tests.
nlohmann::json to_json(const AllocatorComparison& a);
AllocatorComparison allocator_from_json(const nlohmann::json& allocator);

}  // namespace tct::bench
