#pragma once
// The registry: every command tct has and every section an Outcome can hold, each named once.
// A command's section is a descriptor in its own folder (src/<command>/section.hpp; what it
// declares: cli/section_list.hpp); cli/ walks these lists and names no command besides.
// Adding a command: docs/ARCHITECTURE.md, "Adding a command".
#include <memory>

#include "audit/section.hpp"
#include "bench/section.hpp"
#include "cli/section_list.hpp"
#include "compare/section.hpp"
#include "expect/section.hpp"
#include "explain/section.hpp"
#include "job/section.hpp"
#include "probe/section.hpp"
#include "run/section.hpp"
#include "startup/section.hpp"
#include "suite/section.hpp"
#include "trace/section.hpp"

namespace tct::cli {

// The document's sections, in the order the terminal and Markdown reports show them (an audit
// shows its steps' sections in the order they ran).
using Sections =
    SectionList<audit::Section, probe::Section, bench::Section, explain::Section, explain::DiffSection, expect::Section,
                suite::Section, compare::Section, trace::Section, run::Section, startup::Section, job::Section>;

// The descriptor whose Result is R.
template <class R>
using SectionOf = typename detail::SectionIn<R, Sections>::type;

// The subcommands (src/cli/cmd_<command>.cpp), in the order `tct --help` lists them and their
// examples.
class Command;
std::unique_ptr<Command> make_probe_command();
std::unique_ptr<Command> make_bench_command();
std::unique_ptr<Command> make_explain_command();
std::unique_ptr<Command> make_diff_command();
std::unique_ptr<Command> make_expect_command();
std::unique_ptr<Command> make_audit_command();
std::unique_ptr<Command> make_report_command();
std::unique_ptr<Command> make_suite_command();
std::unique_ptr<Command> make_merge_command();
std::unique_ptr<Command> make_compare_command();
std::unique_ptr<Command> make_trace_command();
std::unique_ptr<Command> make_run_command();
std::unique_ptr<Command> make_startup_command();
std::unique_ptr<Command> make_job_command();

using CommandFactory = std::unique_ptr<Command> (*)();
inline constexpr CommandFactory kCommands[] = {
    make_probe_command, make_bench_command,  make_explain_command, make_diff_command,  make_expect_command,
    make_audit_command, make_report_command, make_suite_command,   make_merge_command, make_compare_command,
    make_trace_command, make_run_command,    make_startup_command, make_job_command,
};

}  // namespace tct::cli
