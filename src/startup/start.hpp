#pragma once
// One start as a value: the agent's marks (CLOCK_MONOTONIC, as tct read it at launch), the
// trace's compile phases and cache lookups -> a Start whose phases add up to its time to
// the first output. Pure.
#include <chrono>

#include <nlohmann/json.hpp>

#include "startup/reply.hpp"
#include "startup/result.hpp"
#include "startup/trace_facts.hpp"

namespace tct::startup {

// `reply`: the agent's startup.first_output result; `launch` and `replied`: tct's clock
// just before it spawned the process and when the reply came. A mark outside [launch,
// replied] (another clock) leaves only the total, from the reply.
Start make_start(const reply::FirstOutput& reply, Nanoseconds launch, Nanoseconds replied, const TraceFacts& trace);

}  // namespace tct::startup
