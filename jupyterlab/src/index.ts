// nbsight in JupyterLab 4 and Notebook 7. For each notebook whose kernel
// runs nbsight, the extension opens the `nbsight` comm, sends the notebook's
// code cells (ids and sources) as `sync_notebook` when it opens and after
// every edit (debounced), and marks each code cell's element with
// `data-nbsight-state` (a space-separated set of `stale`, `fresh`,
// `refresher`; empty when none) from the highlights the kernel sends after
// every execution and every sync. Stale cells get a badge whose tooltip
// says why. A toolbar control sets the mode (warn, block, reactive, off);
// the command "nbsight: run stale cells in order" runs the re-run plan. A
// side panel draws the cell dependency graph (panel.ts). On a kernel
// without nbsight it stays silent.

import {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import { Cell, CodeCell } from '@jupyterlab/cells';
import {
  INotebookTracker,
  NotebookActions,
  NotebookPanel
} from '@jupyterlab/notebook';
import { Kernel } from '@jupyterlab/services';
import { Signal } from '@lumino/signaling';
import { Widget } from '@lumino/widgets';

import { GraphView } from './graph/view';
import { GraphPanel, IGraphSource } from './panel';

/** The comm target the kernel's nbsight registers. */
const TARGET = 'nbsight';
/** The attribute tests and styles read: a contract. */
const ATTRIBUTE = 'data-nbsight-state';
/** How long edits wait before the notebook is synced again. */
const SYNC_DELAY_MS = 300;
const MODES = ['warn', 'block', 'reactive', 'off'] as const;
type Mode = (typeof MODES)[number];

/** `nbsight.why(cell)` as the kernel sends it. */
interface StaleRead {
  symbol: string;
  set_by: string | null;
  updated_ancestor: { symbol: string; cell: string | null } | null;
  rerun: string[];
}

interface Highlights {
  type: 'highlights';
  stale_cells: string[];
  fresh_cells: string[];
  refresher_cells: string[];
  why?: Record<string, { stale: StaleRead[]; rerun: string[] }>;
  mode?: Mode;
}

/** One notebook's link to its kernel's nbsight. */
class Link implements IGraphSource {
  private comm: Kernel.IComm | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private last: Highlights | null = null;
  readonly modeSelect: HTMLSelectElement;
  /** The kernel's latest cell dependency graph (`requestGraph`). */
  graph: GraphView | null = null;
  private graphRefused = false;
  readonly changed: Signal<IGraphSource, 'highlights' | 'graph' | 'closed'> = new Signal<
    IGraphSource,
    'highlights' | 'graph' | 'closed'
  >(this);

  constructor(readonly panel: NotebookPanel) {
    this.modeSelect = document.createElement('select');
    this.modeSelect.className = 'jp-nbsight-mode';
    this.modeSelect.title = 'nbsight mode';
    for (const mode of MODES) {
      const option = document.createElement('option');
      option.value = mode;
      option.textContent = `nbsight: ${mode}`;
      this.modeSelect.appendChild(option);
    }
    this.modeSelect.disabled = true;
    this.modeSelect.onchange = () =>
      this.setMode(this.modeSelect.value as Mode);

    const context = panel.sessionContext;
    void context.ready.then(() => this.connect());
    context.kernelChanged.connect(() => {
      this.closed();
      void this.connect();
    });
    context.statusChanged.connect((_, status) => {
      if (status === 'restarting' || status === 'autorestarting') {
        this.closed();
      }
    });
    context.connectionStatusChanged.connect((_, status) => {
      if (status === 'connected' && !this.comm) {
        void this.connect();
      }
    });
    panel.content.modelContentChanged.connect(() => this.scheduleSync());
    panel.content.model?.cells.changed.connect(() => this.apply());
    panel.disposed.connect(() => this.dispose());
  }

  /** The kernel's nbsight answered (its highlights arrived). */
  get connected(): boolean {
    return this.comm !== null && this.last !== null;
  }

  /** The kernel's nbsight draws graphs (an older one answers `graph` with
   * an error). */
  get graphing(): boolean {
    return this.connected && !this.graphRefused;
  }

  /** Opens the comm; a kernel without the target closes it at once. */
  async connect(): Promise<void> {
    const kernel = this.panel.sessionContext.session?.kernel;
    if (!kernel || this.comm || kernel.isDisposed) {
      return;
    }
    let comm: Kernel.IComm;
    try {
      comm = kernel.createComm(TARGET);
    } catch {
      return;
    }
    comm.onMsg = msg => {
      // A late message of a comm since replaced is not this kernel's.
      if (this.comm === comm) {
        this.received(msg.content.data as unknown);
      }
    };
    comm.onClose = () => {
      if (this.comm === comm) {
        this.closed();
      }
    };
    this.comm = comm;
    try {
      await comm.open({}).done;
    } catch {
      if (this.comm === comm) {
        this.closed();
      }
      return;
    }
    if (this.comm === comm) {
      this.sync();
    }
  }

  /** After a cell ran: a kernel that just loaded nbsight can be linked. */
  executed(cell: Cell): void {
    if (!this.comm && cell.model.sharedModel.getSource().includes('nbsight')) {
      void this.connect();
    }
  }

  private closed(): void {
    const was = this.comm !== null;
    this.comm = null;
    this.last = null;
    this.graph = null;
    this.graphRefused = false;
    this.modeSelect.disabled = true;
    this.apply();
    if (was) {
      this.changed.emit('closed');
    }
  }

  /** Asks the kernel for its graph; `changed` says `graph` when it came. */
  requestGraph(): void {
    this.send({ type: 'graph' });
  }

  private scheduleSync(): void {
    if (!this.comm) {
      return;
    }
    if (this.timer !== null) {
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.sync();
    }, SYNC_DELAY_MS);
  }

  /** Sends the code cells, ids and sources, in notebook order. */
  sync(): void {
    const model = this.panel.content.model;
    if (!this.comm || !model) {
      return;
    }
    const cells: [string, string][] = [];
    for (let i = 0; i < model.cells.length; i++) {
      const cell = model.cells.get(i);
      if (cell.type === 'code') {
        cells.push([cell.id, cell.sharedModel.getSource()]);
      }
    }
    this.send({ type: 'sync_notebook', cells });
  }

  setMode(mode: Mode): void {
    this.send({ type: 'set_mode', mode });
  }

  private send(data: Record<string, unknown>): void {
    try {
      this.comm?.send(data as any);
    } catch {
      // The kernel went away: the next connection resyncs.
    }
  }

  private received(data: unknown): void {
    if (typeof data !== 'object' || data === null) {
      return;
    }
    const message = data as { type?: string };
    if (message.type === 'highlights') {
      this.last = data as Highlights;
      this.modeSelect.disabled = false;
      if (this.last.mode) {
        this.modeSelect.value = this.last.mode;
      }
      this.apply();
      this.changed.emit('highlights');
    } else if (message.type === 'graph') {
      const view = (data as { view?: GraphView }).view;
      if (view && Array.isArray(view.cells)) {
        this.graph = view;
        this.changed.emit('graph');
      }
    } else if (message.type === 'error' && !this.graphRefused && this.graph === null) {
      // A kernel whose nbsight predates `graph`: the static graph instead.
      this.graphRefused = true;
      this.changed.emit('closed');
    }
  }

  /** Cell ids to `cell N` (1-based positions, as people count cells). */
  private describe(ids: string[]): string {
    const positions: number[] = [];
    const widgets = this.panel.content.widgets;
    for (const id of ids) {
      const index = widgets.findIndex(w => w.model.id === id);
      if (index >= 0) {
        positions.push(index + 1);
      }
    }
    if (positions.length === 0) {
      return 'the cells above';
    }
    const word = positions.length === 1 ? 'cell' : 'cells';
    return `${word} ${positions.join(', ')}`;
  }

  /** Why a stale cell is stale, in words. */
  explain(id: string): string {
    const why = this.last?.why?.[id];
    if (!why || why.stale.length === 0) {
      return 'reads a stale value';
    }
    const reads = why.stale.map(read => {
      let text = `reads \`${read.symbol}\``;
      const ancestor = read.updated_ancestor;
      if (ancestor && ancestor.symbol !== read.symbol) {
        text += `, computed from \`${ancestor.symbol}\``;
      }
      if (ancestor && ancestor.cell) {
        text += `, updated since by ${this.describe([ancestor.cell])}`;
      }
      return text;
    });
    const rerun = why.rerun.filter(c => c !== id);
    const plan = rerun.length > 0 ? `: re-run ${this.describe(rerun)}` : '';
    return reads.join('; ') + plan;
  }

  /** Marks every code cell with its states. */
  apply(): void {
    const last = this.last;
    for (const widget of this.panel.content.widgets) {
      if (widget.model.type !== 'code') {
        continue;
      }
      const id = widget.model.id;
      const states: string[] = [];
      if (last?.stale_cells.includes(id)) {
        states.push('stale');
      }
      if (last?.fresh_cells.includes(id)) {
        states.push('fresh');
      }
      if (last?.refresher_cells.includes(id)) {
        states.push('refresher');
      }
      widget.node.setAttribute(ATTRIBUTE, states.join(' '));
      this.badge(widget, states.includes('stale') ? this.explain(id) : null);
    }
  }

  private badge(widget: Cell, why: string | null): void {
    let badge = widget.node.querySelector<HTMLElement>('.jp-nbsight-badge');
    if (!badge) {
      const input = widget.node.querySelector('.jp-Cell-inputWrapper');
      if (!input) {
        return;
      }
      badge = document.createElement('span');
      badge.className = 'jp-nbsight-badge';
      badge.textContent = 'stale';
      input.appendChild(badge);
    }
    badge.title = why ?? '';
    badge.setAttribute('aria-label', why ?? '');
  }

  /** The stale cells and the cells their re-run plans name, in notebook order. */
  plan(): CodeCell[] {
    const last = this.last;
    if (!last) {
      return [];
    }
    const wanted = new Set<string>(last.stale_cells);
    for (const id of last.stale_cells) {
      for (const cell of last.why?.[id]?.rerun ?? []) {
        wanted.add(cell);
      }
    }
    return this.panel.content.widgets.filter(
      (w): w is CodeCell => w instanceof CodeCell && wanted.has(w.model.id)
    );
  }

  async runStale(): Promise<void> {
    for (const cell of this.plan()) {
      const ok = await CodeCell.execute(cell, this.panel.sessionContext);
      if (ok === undefined) {
        break;
      }
    }
  }

  dispose(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer);
    }
    try {
      this.comm?.close();
    } catch {
      // Already gone.
    }
    this.comm = null;
    Signal.clearData(this);
  }
}

const plugin: JupyterFrontEndPlugin<void> = {
  id: 'nbsight:plugin',
  description: 'Colours stale, fresh and refresher cells as the kernel\'s nbsight sees them',
  autoStart: true,
  requires: [INotebookTracker],
  optional: [ICommandPalette],
  activate: (
    app: JupyterFrontEnd,
    tracker: INotebookTracker,
    palette: ICommandPalette | null
  ) => {
    const links = new WeakMap<NotebookPanel, Link>();
    const graphPanel = new GraphPanel(tracker, panel => links.get(panel));
    app.shell.add(graphPanel, 'right', { rank: 900 });
    app.commands.addCommand('nbsight:show-graph', {
      label: 'nbsight: Show Cell Dependency Graph',
      execute: () => app.shell.activateById(graphPanel.id)
    });
    palette?.addItem({ command: 'nbsight:show-graph', category: 'nbsight' });
    tracker.widgetAdded.connect((_, panel) => {
      const link = new Link(panel);
      links.set(panel, link);
      graphPanel.follow(panel === tracker.currentWidget);
      const control = new Widget({ node: link.modeSelect });
      panel.toolbar.addItem('nbsight-mode', control);
    });
    NotebookActions.executed.connect((_, { notebook, cell }) => {
      const panel = tracker.find(p => p.content === notebook);
      const link = panel ? links.get(panel) : undefined;
      link?.executed(cell);
    });

    const current = () => {
      const panel = tracker.currentWidget;
      return panel ? links.get(panel) : undefined;
    };
    app.commands.addCommand('nbsight:run-stale', {
      label: 'nbsight: Run Stale Cells in Order',
      isEnabled: () => current()?.connected ?? false,
      execute: () => current()?.runStale()
    });
    palette?.addItem({ command: 'nbsight:run-stale', category: 'nbsight' });
    for (const mode of MODES) {
      const command = `nbsight:mode-${mode}`;
      app.commands.addCommand(command, {
        label: `nbsight: Mode ${mode}`,
        isEnabled: () => current()?.connected ?? false,
        execute: () => current()?.setMode(mode)
      });
      palette?.addItem({ command, category: 'nbsight' });
    }
  }
};

export default plugin;
