#include "bench/aoti_render.hpp"

#include <fmt/format.h>

#include "report/format.hpp"

namespace tct::bench {

std::string aoti_summary(const BenchRow& row) {
  if (!row.aoti) return "";
  const Aoti& a = *row.aoti;
  std::string out = fmt::format("package compile {} (torch.export {} + aoti_compile_and_package {})",
                                report::format_duration(a.package_compile()), report::format_duration(a.export_time),
                                report::format_duration(a.package_time));
  if (a.package_bytes) out += ", " + report::format_bytes(static_cast<double>(*a.package_bytes));
  if (measured(a.load)) out += "; load " + report::format_duration(a.load);
  if (a.timed_from == "cpp") out += "; timed from C++ (tct-aoti)";
  else if (a.timed_from == "python")
    out +=
        "; timed from Python (aoti_load_package)" + (a.runner_note.empty() ? "" : ": no C++ runner, " + a.runner_note);
  return out;
}

}  // namespace tct::bench
