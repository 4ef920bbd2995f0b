//! The self-contained HTML page (`nbsight flow --format html`, `nbsight
//! slice --format html`): the view as JSON, the drawing code and its style
//! inlined; nothing is fetched from the network.

use crate::view::GraphView;

/// The drawing code: `jupyterlab/src/graph/` and its layout library
/// (dagre), bundled by `scripts/build-graph-page` (committed: the Rust
/// build needs no Node.js; the test command checks it is up to date).
const SCRIPT: &str = include_str!("../assets/graph.js");
/// The drawing's style, shared with the JupyterLab panel
/// (`jupyterlab/style/graph.css`, copied by the same script).
const STYLE: &str = include_str!("../assets/graph.css");

/// The page showing `view`.
pub fn page(view: &GraphView) -> String {
    let title = escape_html(&view.title);
    let data = script_safe(&view.to_json());
    let script = SCRIPT.replace("</script", "<\\/script");
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title} · nbsight</title>\n<style>\n{STYLE}</style>\n</head>\n\
         <body class=\"nbsight-graph-page\">\n\
         <div id=\"nbsight-graph\"></div>\n\
         <script type=\"application/json\" id=\"nbsight-graph-data\">{data}</script>\n\
         <script>\n{script}\n</script>\n</body>\n</html>\n"
    )
}

/// JSON that cannot end the `<script>` element it sits in: `<`, `>` and
/// `&` only occur inside JSON strings, where their `\u` escapes mean the
/// same.
fn script_safe(json: &str) -> String {
    json.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::view::{GraphCell, Origin};

    #[test]
    fn code_that_closes_a_script_stays_data() {
        let view = GraphView {
            title: "<a&b>.ipynb".to_string(),
            origin: Origin::Static,
            cells: vec![GraphCell {
                id: "0".to_string(),
                label: "cell 0".to_string(),
                code: "s = '</script><script>alert(1)</script>'".to_string(),
                inputs: Vec::new(),
                outputs: Vec::new(),
                states: Vec::new(),
            }],
            flows: Vec::new(),
            dependencies: Vec::new(),
            slices: BTreeMap::new(),
            slice: None,
        };
        let html = page(&view);
        assert!(html.contains("<title>&lt;a&amp;b&gt;.ipynb · nbsight</title>"));
        let data_start = html.find("id=\"nbsight-graph-data\">").unwrap_or(0);
        let data = &html[data_start..];
        let data = &data[data.find('>').unwrap_or(0) + 1..data.find("</script>").unwrap_or(0)];
        let parsed: serde_json::Value = serde_json::from_str(data).unwrap_or_default();
        assert_eq!(
            parsed["cells"][0]["code"],
            "s = '</script><script>alert(1)</script>'"
        );
        for external in ["<script src", "<link", "<img", "@import"] {
            assert!(
                !html.contains(external),
                "the page fetches nothing: {external}"
            );
        }
    }
}
