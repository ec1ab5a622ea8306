#pragma once
// The audit's own lines: which steps ran, how long each took, and which failed or were
// skipped. The steps' sections follow, rendered by their own commands' renderers (the
// registry, cli/render.cpp, orders them).
#include <string>

#include "audit/result.hpp"

namespace tct::audit {

std::string text(const AuditResult& result);
// The verdict first (what a reader takes away: `headline`, made by the registry from every
// section), then the steps, one line.
std::string brief(const AuditResult& result, const std::string& headline);
std::string markdown(const AuditResult& result);
std::string html_section(const AuditResult& result);

}  // namespace tct::audit
