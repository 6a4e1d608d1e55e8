// The coverage matrix of `isapack coverage --html FILE`: one self-contained
// page (inline CSS, no scripts, nothing fetched) a distribution's CI can
// publish. Cells have a fixed size and solid colours per way (exact,
// generic, generic-retargeted, not covered), so a screenshot can be checked.
#ifndef ISAPACK_TOOLS_CLI_COVERAGE_HTML_H_
#define ISAPACK_TOOLS_CLI_COVERAGE_HTML_H_

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace isapack {

// The cell colours, as #rrggbb (the browser test checks them).
inline constexpr std::string_view kHtmlExactColour = "#1a9850";
inline constexpr std::string_view kHtmlGenericColour = "#4575b4";
inline constexpr std::string_view kHtmlRetargetedColour = "#91bfdb";
inline constexpr std::string_view kHtmlNotCoveredColour = "#d73027";

// Renders an `isapack coverage --json` report.
std::string RenderCoverageHtml(const nlohmann::json& report);

// Text escaped for HTML element content and attribute values.
std::string EscapeHtml(std::string_view text);

}  // namespace isapack

#endif  // ISAPACK_TOOLS_CLI_COVERAGE_HTML_H_
