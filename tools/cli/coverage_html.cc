#include "coverage_html.h"

namespace isapack {
namespace {

using json = nlohmann::json;

std::string Text(const json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

// A member of an object, or `fallback` when the value is no object or lacks it.
json Field(const json& object, const char* key, json fallback) {
  if (!object.is_object()) return fallback;
  const auto it = object.find(key);
  return it != object.end() && !it->is_null() ? *it : fallback;
}

json Field(const json& object, const std::string& key, json fallback) {
  return Field(object, key.c_str(), std::move(fallback));
}

std::string_view ColourOf(std::string_view way) {
  if (way == "exact") return kHtmlExactColour;
  if (way == "generic") return kHtmlGenericColour;
  if (way == "generic-retargeted") return kHtmlRetargetedColour;
  return kHtmlNotCoveredColour;
}

std::string Swatch(std::string_view way) {
  return "<span class=\"swatch\" style=\"background:" + std::string(ColourOf(way)) + "\"></span>";
}

}  // namespace

std::string EscapeHtml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string RenderCoverageHtml(const json& report) {
  std::string page =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<title>isapack coverage</title><style>\n"
      "body{font-family:sans-serif;margin:16px;background:#fff;color:#000}\n"
      "table.matrix{border-collapse:separate;border-spacing:4px}\n"
      "table.matrix th{font-weight:normal;text-align:left;padding:2px 6px}\n"
      "td.cell{width:120px;min-width:120px;height:40px;padding:0;vertical-align:top;"
      "border:1px solid #000}\n"
      "td.cell .swatch{display:block;width:120px;height:24px}\n"
      "td.cell .object{display:block;font-size:11px;height:16px;overflow:hidden;"
      "white-space:nowrap}\n"
      "span.swatch{display:inline-block;width:24px;height:16px;vertical-align:middle}\n"
      "</style></head><body>\n<h1>GPU coverage</h1>\n";
  const json rocr = Field(report, "rocr", json::object());
  page += "<p class=\"rocr\">ROCr " + EscapeHtml(Text(Field(rocr, "version", json("?")))) + " (" +
          EscapeHtml(Text(Field(rocr, "source", json("")))) + ")</p>\n";
  page += "<p class=\"legend\">" + Swatch("exact") + " exact code object " + Swatch("generic") +
          " generic code object " + Swatch("generic-retargeted") +
          " generic, retargeted by libisapack " + Swatch("not-covered") + " not covered</p>\n";
  const json gpus = Field(report, "gpus", json::array());
  const json packages = Field(report, "packages", json::array());
  if (packages.empty() || gpus.empty()) {
    page += "<p class=\"empty\">no AMDGPU code found</p>\n";
  } else {
    page += "<table class=\"matrix\"><tr><th>package</th>";
    for (const json& gpu : gpus) {
      page += "<th>" + EscapeHtml(Text(Field(gpu, "name", json("")))) + "<br><small>" +
              EscapeHtml(Text(Field(gpu, "product", json("")))) + "</small></th>";
    }
    page += "</tr>\n";
    for (const json& package : packages) {
      page += "<tr><th>" + EscapeHtml(Text(Field(package, "name", json("")))) + " <small>" +
              EscapeHtml(Text(Field(package, "version", json("")))) + "</small></th>";
      const json coverage = Field(package, "coverage", json::object());
      for (const json& gpu : gpus) {
        const std::string name = Text(Field(gpu, "name", json("")));
        const json cell = Field(coverage, name, json::object());
        const std::string way = Text(Field(cell, "way", json("not-covered")));
        page += "<td class=\"cell " + EscapeHtml(way) + "\" title=\"" +
                EscapeHtml(Text(Field(cell, "hint", json("")))) + "\">" + Swatch(way) +
                "<span class=\"object\">" + EscapeHtml(Text(Field(cell, "object", json("")))) +
                "</span></td>";
      }
      page += "</tr>\n";
    }
    page += "</table>\n";
  }
  std::string notes;
  for (const json& package : packages) {
    const std::string name = Text(Field(package, "name", json("")));
    const json coverage = Field(package, "coverage", json::object());
    for (const auto& [gpu, cell] : coverage.items()) {
      const std::string hint = Text(Field(cell, "hint", json("")));
      if (!hint.empty()) {
        notes += "<li>" + EscapeHtml(name) + " on " + EscapeHtml(gpu) + ": " + EscapeHtml(hint) +
                 "</li>\n";
      }
    }
    const json metadata = Field(package, "metadata", json::object());
    const json declared_only = Field(metadata, "declared_not_in_binaries", json::array());
    for (const json& gpu : declared_only) {
      notes += "<li>" + EscapeHtml(name) + " declares " + EscapeHtml(Text(gpu)) +
               " but its binaries do not cover it</li>\n";
    }
    const json binaries_only = Field(metadata, "in_binaries_not_declared", json::array());
    for (const json& gpu : binaries_only) {
      notes += "<li>" + EscapeHtml(name) + " covers " + EscapeHtml(Text(gpu)) +
               " but does not declare it</li>\n";
    }
  }
  const json require = Field(report, "require", json::object());
  const json missing_list = Field(require, "missing", json::array());
  for (const json& missing : missing_list) {
    const json missing_gpus = Field(missing, "gpus", json::array());
    for (const json& gpu : missing_gpus) {
      notes += "<li>" + EscapeHtml(Text(Field(missing, "package", json("")))) +
               " misses required " + EscapeHtml(Text(gpu)) + "</li>\n";
    }
  }
  if (!notes.empty()) page += "<h2>Notes</h2>\n<ul class=\"notes\">\n" + notes + "</ul>\n";
  const json errors = Field(report, "errors", json::array());
  if (!errors.empty()) {
    page += "<h2>Errors (the scan is incomplete)</h2>\n<ul class=\"errors\">\n";
    for (const json& error : errors) page += "<li>" + EscapeHtml(Text(error)) + "</li>\n";
    page += "</ul>\n";
  }
  page += "</body></html>\n";
  return page;
}

}  // namespace isapack
