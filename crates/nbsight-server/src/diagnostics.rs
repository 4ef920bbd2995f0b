//! Findings as LSP diagnostics: the rule's code with a link to its
//! documentation, the range of the flagged name, the other cells involved
//! (the cells on the finding's path, a definer below) as related
//! information; syntax errors as errors without a code.

use lsp_types::{
    CodeDescription, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location,
    NumberOrString, Range, Uri,
};
use nbsight_check::Finding;
use nbsight_notebook::{Severity, SyntaxIssue};

use crate::uri;

/// The `source` of every diagnostic nbsight publishes.
pub(crate) const SOURCE: &str = "nbsight";

pub(crate) fn severity(severity: Severity) -> DiagnosticSeverity {
    match severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
    }
}

/// The diagnostic of `finding` at `range`; `cell_start` gives the place of
/// another cell.
pub(crate) fn finding_diagnostic(
    finding: &Finding,
    range: Range,
    cell_start: impl Fn(usize) -> Option<(Uri, Range)>,
) -> Diagnostic {
    let mut others: Vec<(usize, &'static str)> = Vec::new();
    for cell in &finding.path {
        if *cell != finding.cell && !others.iter().any(|(c, _)| *c == cell.index()) {
            others.push((cell.index(), "on the path to this finding"));
        }
    }
    for cell in &finding.related {
        if *cell != finding.cell && !others.iter().any(|(c, _)| *c == cell.index()) {
            others.push((cell.index(), "involved in this finding"));
        }
    }
    let related: Vec<DiagnosticRelatedInformation> = others
        .into_iter()
        .filter_map(|(cell, role)| {
            let (uri, range) = cell_start(cell)?;
            Some(DiagnosticRelatedInformation {
                location: Location { uri, range },
                message: format!("cell {cell}: {role}"),
            })
        })
        .collect();
    Diagnostic {
        range,
        severity: Some(severity(finding.severity())),
        code: Some(NumberOrString::String(finding.code().to_string())),
        code_description: uri::parse(&finding.rule.docs_url()).map(|href| CodeDescription { href }),
        source: Some(SOURCE.to_string()),
        message: finding.message.clone(),
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: Some(serde_json::json!({ "name": finding.name() })),
    }
}

pub(crate) fn syntax_diagnostic(range: Range, issue: &SyntaxIssue) -> Diagnostic {
    Diagnostic {
        range,
        severity: Some(DiagnosticSeverity::ERROR),
        source: Some(SOURCE.to_string()),
        message: format!("SyntaxError: {}", issue.message),
        ..Diagnostic::default()
    }
}

/// The rule code of one of nbsight's diagnostics (`None` for others and for
/// syntax errors).
pub(crate) fn rule_code(diagnostic: &Diagnostic) -> Option<&str> {
    if diagnostic.source.as_deref() != Some(SOURCE) {
        return None;
    }
    match &diagnostic.code {
        Some(NumberOrString::String(code)) if code.starts_with("NBS") => Some(code),
        _ => None,
    }
}
