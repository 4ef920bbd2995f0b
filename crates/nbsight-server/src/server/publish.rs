//! Analysis and what the client is sent of it: each changed document
//! analysed once, its cells' diagnostics (findings and the kernel's stale
//! reads) pushed or offered to pull, the impact of an edit, the kernel's
//! history watched, messages to the user.

use super::*;

impl Server {
    pub(super) fn analyse(&mut self, uri: &Uri) {
        let Some(doc) = self.docs.get(uri) else {
            return;
        };
        let path = doc.path();
        let rules = self.rules_for(&path);
        let Some(doc) = self.docs.get(uri) else {
            return;
        };
        let previous = self.analyses.get(uri).map(|a| &a.model);
        let analysis = analyse(doc, previous, rules, self.encoding);
        self.names.remove(uri);
        self.analyses.insert(uri.clone(), analysis);
    }

    /// Analyses what changed and publishes; then, when nothing newer waits,
    /// what the edit impacts.
    pub(super) fn flush(&mut self, incoming: &Receiver<Incoming>) {
        let dirty = std::mem::take(&mut self.dirty);
        for uri in dirty {
            self.refresh(&uri, incoming.is_empty());
        }
    }

    /// Analyses `uri` at its latest version and publishes what changed;
    /// with `impact`, sends what the edit since the last analysis impacts.
    pub(super) fn refresh(&mut self, uri: &Uri, impact: bool) {
        let before = self.baseline.remove(uri);
        let edit = self.docs.take_pending(uri);
        self.analyse(uri);
        if let Some(analysis) = self.analyses.get(uri) {
            self.baseline.insert(uri.clone(), analysis.notebook.clone());
        }
        self.publish(uri, false);
        if let (true, Some(before), Some(edit), Some(doc)) =
            (impact, before, edit, self.docs.get(uri))
            && !doc.script
            && edit != Edit::Other
        {
            self.impacts.submit(Job {
                before,
                edit,
                doc: doc.clone(),
            });
        }
    }

    /// Sends an impact the worker found, unless the notebook changed since.
    pub(super) fn send_impact(&mut self, params: crate::impact::ImpactParams) {
        let current = self
            .docs
            .get(&params.notebook)
            .is_some_and(|d| d.version == params.version && !self.dirty.contains(&d.uri));
        if current {
            send(
                &self.out,
                Notification::new(ImpactNotification::METHOD.to_string(), params),
            );
        }
    }

    /// Sends every cell of `uri` whose diagnostics or version changed (all
    /// at the first analysis). A pulling client pulls again after its own
    /// edits; with `refresh` (a change it did not make: the kernel's
    /// history) it is asked to.
    pub(super) fn publish(&mut self, uri: &Uri, refresh: bool) {
        let Some(doc) = self.docs.get(uri) else {
            return;
        };
        let targets: Vec<(Uri, i32)> = doc
            .cells
            .iter()
            .map(|c| (c.uri.clone(), c.version))
            .collect();
        let mut shown = self.shown(doc);
        let mut changed = false;
        for (target, version) in targets {
            let diagnostics = shown.remove(&target).unwrap_or_default();
            // A document edited since gets its diagnostics again, for its
            // new version, even when they did not change.
            let same = self
                .published
                .get(&target)
                .is_some_and(|(v, d)| *v == version && *d == diagnostics);
            if same {
                continue;
            }
            changed = true;
            self.published
                .insert(target.clone(), (version, diagnostics.clone()));
            if self.push {
                self.send_diagnostics(target, diagnostics, Some(version));
            }
        }
        if changed && refresh && !self.push && self.refresh {
            self.next_request += 1;
            let request = Request::new(
                RequestId::from(format!("nbsight-refresh-{}", self.next_request)),
                req::WorkspaceDiagnosticRefresh::METHOD.to_string(),
                (),
            );
            send(&self.out, request);
        }
    }

    pub(super) fn send_diagnostics(
        &self,
        uri: Uri,
        diagnostics: Vec<Diagnostic>,
        version: Option<i32>,
    ) {
        let params = PublishDiagnosticsParams {
            uri,
            diagnostics,
            version,
        };
        send(
            &self.out,
            Notification::new(notif::PublishDiagnostics::METHOD.to_string(), params),
        );
    }

    pub(super) fn poll_live(&mut self) {
        let mut changed = Vec::new();
        for (uri, watch) in &mut self.live {
            if watch.refresh() {
                changed.push(uri.clone());
            }
        }
        for uri in changed {
            if self.analyses.contains_key(&uri) {
                self.publish(&uri, true);
            }
        }
    }

    pub(super) fn show_error(&mut self, message: String) {
        if !self.errors_shown.insert(message.clone()) {
            return;
        }
        let params = ShowMessageParams {
            typ: MessageType::ERROR,
            message: format!("nbsight: {message}"),
        };
        send(
            &self.out,
            Notification::new(notif::ShowMessage::METHOD.to_string(), params),
        );
    }

    pub(super) fn log(&self, message: String) {
        let params = lsp_types::LogMessageParams {
            typ: MessageType::WARNING,
            message: format!("nbsight: {message}"),
        };
        send(
            &self.out,
            Notification::new(notif::LogMessage::METHOD.to_string(), params),
        );
    }
}
