#include "probe/result.hpp"

namespace tct::probe {
namespace {

template <class Enum, size_t N>
std::optional<Enum> parse(std::string_view s, const Enum (&all)[N]) {
  for (Enum e : all)
    if (to_string(e) == s) return e;
  return std::nullopt;
}

}  // namespace

std::string_view to_string(Severity s) {
  switch (s) {
    case Severity::Blocker: return "blocker";
    case Severity::Caveat: return "caveat";
    case Severity::Info: return "info";
  }
  return "info";
}

std::string_view to_string(Verdict v) {
  switch (v) {
    case Verdict::Usable: return "usable";
    case Verdict::UsableWithCaveats: return "usable_with_caveats";
    case Verdict::NotUsable: return "not_usable";
  }
  return "not_usable";
}

std::string_view to_string(SupportStatus s) {
  switch (s) {
    case SupportStatus::Tested: return "tested";
    case SupportStatus::InRange: return "in_range";
    case SupportStatus::Older: return "older";
    case SupportStatus::Newer: return "newer";
  }
  return "in_range";
}

std::optional<Severity> parse_severity(std::string_view s) {
  static const Severity all[] = {Severity::Blocker, Severity::Caveat, Severity::Info};
  return parse(s, all);
}

std::optional<Verdict> parse_verdict(std::string_view s) {
  static const Verdict all[] = {Verdict::Usable, Verdict::UsableWithCaveats, Verdict::NotUsable};
  return parse(s, all);
}

std::optional<SupportStatus> parse_support_status(std::string_view s) {
  static const SupportStatus all[] = {SupportStatus::Tested, SupportStatus::InRange, SupportStatus::Older,
                                      SupportStatus::Newer};
  return parse(s, all);
}

}  // namespace tct::probe
