//! Text made safe inside the SVG plots and the HTML report: the one escaping both use.

/// `s` with the characters markup gives meaning to (`&`, `<`, `>`, `"`) written as entities.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}
