//! The text sent to the model: a fixed system message and one user prompt per
//! [`Question`], which states the conventions and demands a strict last line.

use crate::question::{Question, QuestionKind};

/// The system message sent with every prompt.
pub const SYSTEM_PROMPT: &str = "You are a careful static analyser of Python code in Jupyter \
notebooks. You answer one yes/no question about one notebook cell. Think briefly if you need \
to, then end your reply with a last line that is exactly `Answer: Yes` or `Answer: No`.";

/// The user prompt for `q`: the conventions, the alias context if any, the cell, the
/// question, and the required answer form (`Answer: Yes` / `Answer: No` on the last line).
pub fn prompt(q: &Question) -> String {
    let mut p = String::new();
    p.push_str(
        "Notebook cells run one after another in one Python kernel and share its global \
variables. Conventions:\n\
- An input of a cell is a value produced by an earlier cell that this cell reads or \
mutates in place. A variable the cell always assigns before reading it (for example a \
loop-carried variable initialised in the cell before the loop) is not an input.\n\
- An output candidate of a cell is a value this cell produces (assigns, defines, imports) \
or mutates in place that a later cell could read.\n\
- A symbol such as `df.col` or `d['k']` names an attribute or item of a variable; the \
question is about that part.\n\n",
    );
    if let Some(context) = q.context.as_deref().filter(|c| !c.trim().is_empty()) {
        p.push_str("Earlier statements in the notebook that create an alias involved here:\n");
        push_code(&mut p, context);
        p.push('\n');
    }
    p.push_str(&format!("The cell ({}):\n", q.cell_label));
    push_code(&mut p, &q.cell_source);
    let qualifier = match q.kind {
        QuestionKind::Input => "",
        QuestionKind::OutputCandidate => " (a value a later cell could read)",
    };
    p.push_str(&format!(
        "\nQuestion: is `{}` an {} of {}{qualifier}?\n\
Reply with at most a few sentences of reasoning, then a last line that is exactly \
`Answer: Yes` or `Answer: No`.",
        q.symbol,
        q.kind.noun(),
        q.cell_label,
    ));
    p
}

/// Appends `code` in a fenced Python block whose fence is longer than any run of
/// backticks inside the code.
fn push_code(p: &mut String, code: &str) {
    let fence = "`".repeat(longest_backtick_run(code).max(2) + 1);
    p.push_str(&fence);
    p.push_str("python\n");
    p.push_str(code.trim_end_matches(['\n', '\r']));
    p.push('\n');
    p.push_str(&fence);
    p.push('\n');
}

fn longest_backtick_run(s: &str) -> usize {
    let (mut best, mut run) = (0, 0);
    for c in s.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn question(kind: QuestionKind, context: Option<&str>) -> Question {
        Question {
            kind,
            symbol: "df".into(),
            cell_source: "for i in range(3):\n    total = df.sum()\n".into(),
            context: context.map(str::to_owned),
            cell_label: "cell 7".into(),
        }
    }

    #[test]
    fn input_prompt_has_conventions_cell_and_answer_form() {
        let p = prompt(&question(QuestionKind::Input, None));
        assert!(p.contains("An input of a cell is a value produced by an earlier cell"));
        assert!(p.contains("is not an input"));
        assert!(p.contains("An output candidate of a cell"));
        assert!(p.contains(
            "The cell (cell 7):\n```python\nfor i in range(3):\n    total = df.sum()\n```\n"
        ));
        assert!(p.contains("Question: is `df` an input of cell 7?"));
        assert!(p.ends_with("exactly `Answer: Yes` or `Answer: No`."));
        assert!(!p.contains("alias"));
    }

    #[test]
    fn output_candidate_prompt_with_alias_context() {
        let p = prompt(&question(QuestionKind::OutputCandidate, Some("df = raw\n")));
        assert!(p.contains("create an alias involved here:\n```python\ndf = raw\n```\n"));
        assert!(p.contains("Question: is `df` an output candidate of cell 7"));
        let context_at = p.find("df = raw").unwrap();
        let cell_at = p.find("The cell (cell 7)").unwrap();
        assert!(context_at < cell_at);
    }

    #[test]
    fn blank_context_is_left_out() {
        let p = prompt(&question(QuestionKind::Input, Some("  \n")));
        assert!(!p.contains("alias"));
    }

    #[test]
    fn fence_outgrows_backticks_in_the_cell() {
        let mut q = question(QuestionKind::Input, None);
        q.cell_source = "s = '````'".into();
        let p = prompt(&q);
        assert!(p.contains("`````python\ns = '````'\n`````\n"));
    }

    #[test]
    fn prompt_is_deterministic() {
        let q = question(QuestionKind::Input, Some("a = b"));
        assert_eq!(prompt(&q), prompt(&q));
    }
}
