//! The nesting bound: cells nested deeper than any analysis can walk are not
//! parsed.
//!
//! Ruff's parser, the AST it builds (and drops) and every walk over it recurse
//! once per level of nesting, so `((((a))))` 100,000 deep or a 20,000-long
//! `a.b.b...` chain would overflow any stack. Before parsing, one pass of
//! ruff's lexer (which does not recurse) bounds the depth from above; a cell
//! over [`MAX_NESTING`] is a syntax issue instead of a tree. CPython stops
//! far earlier (200 nested brackets, 100 indented blocks, about 3,000 levels
//! in its compiler), so no cell Python can run is refused.
//!
//! The bound, per token: every token that is not an atom (name, number,
//! string), a comma or a separator may open a level (operators and keywords
//! nest their operands, `a.b.c` is nested twice, `lambda: lambda: x` twice),
//! and so does a call or subscript (`(` or `[` right after an operand:
//! `f()()` is nested twice); an opening bracket opens one more and starts a
//! new count inside it; a comma starts a new sibling (its count restarts); a
//! new logical line restarts everything but the indentation, which counts one
//! level per block. The depth at a token is the indentation, the open
//! brackets and the counts of the current sibling in each. This over-counts
//! flat constructs (`a and b and c` is one node), never under-counts, and
//! takes time linear in the cell.

use ruff_python_ast::token::TokenKind;
use ruff_python_parser::Mode;
use ruff_python_parser::lexer::lex;

/// Cells nested deeper than this (by the bound above) are not analysed. The
/// programs that run the analyses give them a stack sized for it.
pub const MAX_NESTING: usize = 5_000;

/// An upper bound of the nesting depth of `source` (IPython mode), or `None`
/// when it is over `limit` (the lexing stops there).
pub fn nesting_within(source: &str, limit: usize) -> Option<usize> {
    // Every level takes at least one byte: a short cell is within any bound
    // its length is.
    if source.len() <= limit {
        return Some(source.len());
    }
    let mut lexer = lex(source, Mode::Ipython);
    // Per open bracket, the count of the current sibling inside it; the first
    // entry is the logical line's own. `open` is their sum plus one level per
    // open bracket.
    let mut counts: Vec<usize> = vec![0];
    let (mut open, mut indent, mut deepest) = (0usize, 0usize, 0usize);
    // Did the last token end an operand (so that `(` or `[` is a call or a
    // subscript of it, one more level around it)?
    let mut after_operand = false;
    loop {
        let kind = lexer.next_token();
        let mut ends_operand = false;
        match kind {
            TokenKind::EndOfFile => break,
            TokenKind::Lpar
            | TokenKind::Lsqb
            | TokenKind::Lbrace
            | TokenKind::FStringStart
            | TokenKind::TStringStart => {
                if after_operand && matches!(kind, TokenKind::Lpar | TokenKind::Lsqb) {
                    bump(&mut counts, &mut open);
                }
                open += 1;
                counts.push(0);
            }
            TokenKind::Rpar
            | TokenKind::Rsqb
            | TokenKind::Rbrace
            | TokenKind::FStringEnd
            | TokenKind::TStringEnd => {
                if counts.len() > 1 {
                    open -= counts.pop().unwrap_or(0) + 1;
                }
                ends_operand = true;
            }
            TokenKind::Comma => {
                if let Some(last) = counts.last_mut() {
                    open -= *last;
                    *last = 0;
                }
            }
            TokenKind::Newline | TokenKind::Semi => {
                counts.clear();
                counts.push(0);
                open = 0;
            }
            TokenKind::Indent => indent += 1,
            TokenKind::Dedent => indent = indent.saturating_sub(1),
            TokenKind::Name
            | TokenKind::Int
            | TokenKind::Float
            | TokenKind::Complex
            | TokenKind::String
            | TokenKind::IpyEscapeCommand
            | TokenKind::Ellipsis
            | TokenKind::None
            | TokenKind::True
            | TokenKind::False => ends_operand = true,
            TokenKind::FStringMiddle
            | TokenKind::TStringMiddle
            | TokenKind::Comment
            | TokenKind::NonLogicalNewline
            | TokenKind::Colon
            | TokenKind::Equal
            | TokenKind::Pass
            | TokenKind::Break
            | TokenKind::Continue => {}
            _ => bump(&mut counts, &mut open),
        }
        after_operand = ends_operand;
        deepest = deepest.max(indent + open);
        if deepest > limit {
            return None;
        }
    }
    Some(deepest)
}

/// One more level in the current sibling.
fn bump(counts: &mut [usize], open: &mut usize) {
    if let Some(last) = counts.last_mut() {
        *last += 1;
    }
    *open += 1;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn over(source: &str, limit: usize) -> bool {
        nesting_within(source, limit).is_none()
    }

    #[test]
    fn brackets_operators_and_blocks_nest() {
        assert!(over(
            &format!("x = {}a{}", "(".repeat(50), ")".repeat(50)),
            40
        ));
        assert!(over(&format!("x = {}1", "lambda: ".repeat(50)), 40));
        assert!(over(&format!("x = a{}", ".b".repeat(50)), 40));
        assert!(over(&format!("x = a{}", "[0]".repeat(50)), 40));
        assert!(over(&format!("x = {}b", "a if c else ".repeat(30)), 40));
        assert!(over(&format!("x = {}a", "-".repeat(50)), 40));
        assert!(over(&format!("x = f{}", "()".repeat(50)), 40));
        let blocks: String = (0..50)
            .map(|i| format!("{}if x:\n", " ".repeat(i)))
            .collect();
        assert!(over(&format!("{blocks}{}pass\n", " ".repeat(50)), 40));
    }

    #[test]
    fn siblings_and_statements_do_not_add_up() {
        let list = format!("x = [{}]\n", vec!["a + b"; 5_000].join(", "));
        assert!(!over(&list, 10));
        let lines = "y = a.b.c + d\n".repeat(5_000);
        assert!(!over(&lines, 10));
        let calls = format!("f({})\n", vec!["g(h(x))"; 2_000].join(", "));
        assert!(!over(&calls, 10));
        let fstrings = format!("s = f'{}'\n", "{x!r:>{w}} ".repeat(2_000));
        assert!(!over(&fstrings, 10));
    }

    #[test]
    fn short_cells_are_not_lexed() {
        assert_eq!(nesting_within("((((", 10), Some(4));
        assert_eq!(nesting_within("", 0), Some(0));
    }
}
