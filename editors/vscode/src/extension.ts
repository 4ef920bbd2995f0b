// The nbsight extension for VS Code: starts `nbsight server` (LSP 3.17) for
// Jupyter notebooks and percent scripts. Diagnostics, quick fixes, hover and
// navigation come through VS Code's language client as they are; this file
// only starts it and shows `nbsight/impact` (the cells an edit impacts) in
// the status bar.

import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from "vscode-languageclient/node";

/** `nbsight/impact`'s parameters (docs/server.md). */
interface CellRef {
  cell: number;
  uri: string;
}

interface ImpactParams {
  notebook: string;
  version: number;
  event: { kind: string; cell: number | null; uri: string | null };
  impactedCells: Array<CellRef & { depth: number; symbols: string[] }>;
  staleRiskCells: CellRef[];
  findings: Array<CellRef & { code: string; message: string; path: number[] }>;
  rerunPlan: CellRef[];
  truncated: boolean;
}

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const config = vscode.workspace.getConfiguration("nbsight");
  const serverOptions: ServerOptions = {
    command: config.get<string>("path") || "nbsight",
    args: ["server"],
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      // Every cell of a notebook (the server's notebookDocumentSync says
      // which notebooks), and percent scripts.
      { notebook: "*", language: "python" },
      { scheme: "file", language: "python" },
    ],
  };
  client = new LanguageClient("nbsight", "nbsight", serverOptions, clientOptions);

  const status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 50);
  context.subscriptions.push(status);
  client.onNotification("nbsight/impact", (params: ImpactParams) => {
    if (!vscode.workspace.getConfiguration("nbsight").get<boolean>("showImpact", true)) {
      return;
    }
    const impacted = params.impactedCells.length;
    const risky = params.staleRiskCells.length;
    status.text = `$(references) nbsight: edit impacts ${impacted} cell${impacted === 1 ? "" : "s"}`;
    status.tooltip =
      `${risky} of them ran before and now hold values from the old code` +
      (params.rerunPlan.length > 0
        ? `; re-run cells ${params.rerunPlan.map((c) => c.cell).join(", ")} in order`
        : "");
    status.show();
  });
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
