/**
 * The side panel with the notebook's cell dependency graph: the kernel's
 * (what the executions read and set, `nbsight.graph()`) when its nbsight
 * is linked, else the static one the Jupyter server computes from the
 * cells (`POST /nbsight/graph`, `nbsight flow`'s). The active cell is
 * selected, its backward and forward slices highlighted; a click on a box
 * goes to the cell. Draws with the code the HTML page uses.
 */

import { URLExt } from '@jupyterlab/coreutils';
import { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import { ServerConnection } from '@jupyterlab/services';
import { LabIcon } from '@jupyterlab/ui-components';
import { Message } from '@lumino/messaging';
import { ISignal } from '@lumino/signaling';
import { Widget } from '@lumino/widgets';

import { CellDetails } from './graph/details';
import { GraphDrawing } from './graph/render';
import { EdgeMode, GraphView } from './graph/view';

/** What the panel needs of a notebook's link to its kernel's nbsight. */
export interface IGraphSource {
  /** The kernel's nbsight answers `graph` (else the static graph is drawn). */
  readonly graphing: boolean;
  /** The kernel's latest graph (after `requestGraph`). */
  readonly graph: GraphView | null;
  /** Emitted with `highlights` after every execution and sync, and with
   * `graph` when the kernel's graph arrives. */
  readonly changed: ISignal<IGraphSource, 'highlights' | 'graph' | 'closed'>;
  requestGraph(): void;
}

/** How long edits wait before the static graph is asked again. */
const STATIC_DELAY_MS = 600;

export const graphIcon = new LabIcon({
  name: 'nbsight:graph',
  svgstr:
    '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">' +
    '<g class="jp-icon3" fill="#616161"><rect x="1" y="1" width="6" height="4" rx="1"/>' +
    '<rect x="9" y="6" width="6" height="4" rx="1"/><rect x="1" y="11" width="6" height="4" rx="1"/>' +
    '<path d="M4 5v6h1V5zM7 3h4v3h-1V4H7z"/></g></svg>'
});

export class GraphPanel extends Widget {
  private readonly drawing = new GraphDrawing();
  private readonly details = new CellDetails();
  private readonly sourceLabel: HTMLSpanElement;
  private mode: EdgeMode = 'flows';
  private notebook: NotebookPanel | null = null;
  private source: IGraphSource | null = null;
  private view: GraphView | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Counts the static graphs asked for: only the latest answer is drawn. */
  private staticAsked = 0;

  constructor(
    private readonly tracker: INotebookTracker,
    private readonly sources: (panel: NotebookPanel) => IGraphSource | undefined
  ) {
    super();
    this.id = 'nbsight-graph-panel';
    this.addClass('jp-nbsight-graph-panel');
    this.title.icon = graphIcon;
    this.title.caption = 'nbsight: cell dependency graph';

    const toolbar = document.createElement('div');
    toolbar.className = 'jp-nbsight-graph-toolbar';
    const select = document.createElement('select');
    select.className = 'jp-nbsight-graph-mode';
    for (const [value, text] of [
      ['flows', 'Information flows'],
      ['dependencies', 'Cell dependencies']
    ]) {
      const option = document.createElement('option');
      option.value = value;
      option.textContent = text;
      select.appendChild(option);
    }
    select.onchange = () => {
      this.mode = select.value as EdgeMode;
      if (this.view) {
        this.drawing.draw(this.view, this.mode);
      }
    };
    this.sourceLabel = document.createElement('span');
    this.sourceLabel.className = 'jp-nbsight-graph-source';
    toolbar.append(select, this.sourceLabel);
    this.node.append(toolbar, this.drawing.node, this.details.node);

    this.drawing.onSelect = cell => this.goTo(cell);
    this.details.onSelect = cell => this.goTo(cell);
    tracker.currentChanged.connect(() => this.follow());
    this.follow();
  }

  /** The graph's id of the notebook cell at `index`. */
  private idOf(index: number): string | null {
    const widget = this.notebook?.content.widgets[index];
    if (!widget || !this.view) {
      return null;
    }
    return this.view.origin === 'kernel' ? widget.model.id : String(index);
  }

  /** The notebook index of the graph's `cell` (in a view from `origin`). */
  private indexOf(cell: string, origin = this.view?.origin): number {
    const widgets = this.notebook?.content.widgets ?? [];
    if (origin === 'kernel') {
      return widgets.findIndex(w => w.model.id === cell);
    }
    const index = Number(cell);
    return Number.isInteger(index) && index < widgets.length ? index : -1;
  }

  /** Selects `cell` in the drawing and makes it the notebook's active cell. */
  private goTo(cell: string): void {
    this.showCell(cell);
    const notebook = this.notebook?.content;
    const index = this.indexOf(cell);
    if (notebook && index >= 0) {
      notebook.activeCellIndex = index;
      void notebook.scrollToItem(index, 'center');
    }
  }

  private showCell(cell: string | null): void {
    this.drawing.select(cell, true);
    if (cell !== null && this.view) {
      this.details.show(this.view, cell, this.drawing.slices(cell));
    } else {
      this.details.clear();
    }
  }

  /** Follows the current notebook (`again`: even when it is the one
   * followed, its link to the kernel having just been made). */
  follow(again = false): void {
    const notebook = this.tracker.currentWidget;
    if (notebook === this.notebook && !again) {
      return;
    }
    this.source?.changed.disconnect(this.onSourceChanged, this);
    if (this.notebook && !this.notebook.isDisposed) {
      this.notebook.content.activeCellChanged.disconnect(this.onActiveCell, this);
      this.notebook.content.modelContentChanged.disconnect(this.onEdited, this);
    }
    this.notebook = notebook;
    this.source = notebook ? (this.sources(notebook) ?? null) : null;
    // Nothing of the notebook followed before stays on screen.
    this.view = null;
    this.staticAsked += 1;
    this.drawing.clear();
    this.details.clear();
    this.sourceLabel.textContent = notebook ? 'Loading…' : '';
    this.source?.changed.connect(this.onSourceChanged, this);
    if (notebook) {
      notebook.content.activeCellChanged.connect(this.onActiveCell, this);
      notebook.content.modelContentChanged.connect(this.onEdited, this);
    }
    this.refresh();
  }

  protected onAfterShow(msg: Message): void {
    super.onAfterShow(msg);
    this.refresh();
  }

  private onSourceChanged(_: IGraphSource, what: 'highlights' | 'graph' | 'closed'): void {
    if (what === 'graph' && this.source?.graph) {
      this.render(this.source.graph);
    } else {
      this.refresh();
    }
  }

  private onActiveCell(): void {
    const index = this.notebook?.content.activeCellIndex ?? -1;
    const id = this.idOf(index);
    if (id !== null && this.view?.cells.some(c => c.id === id)) {
      this.showCell(id);
    }
  }

  private onEdited(): void {
    if (this.source?.graphing) {
      return; // The kernel's graph follows its highlights.
    }
    if (this.timer !== null) {
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.refresh();
    }, STATIC_DELAY_MS);
  }

  /** Asks for the graph again: the kernel's, else the static one. */
  refresh(): void {
    if (!this.isVisible) {
      return;
    }
    if (!this.notebook) {
      this.view = null;
      this.sourceLabel.textContent = 'Open a notebook to see its graph';
      this.drawing.node.replaceChildren();
      this.details.clear();
      return;
    }
    if (this.source?.graphing) {
      this.source.requestGraph();
    } else {
      void this.fetchStatic();
    }
  }

  private async fetchStatic(): Promise<void> {
    const notebook = this.notebook;
    const model = notebook?.content.model;
    if (!notebook || !model) {
      return;
    }
    const cells: [string, string][] = [];
    for (let i = 0; i < model.cells.length; i++) {
      const cell = model.cells.get(i);
      cells.push([cell.type, cell.sharedModel.getSource()]);
    }
    const asked = ++this.staticAsked;
    const current = () => notebook === this.notebook && asked === this.staticAsked;
    const settings = ServerConnection.makeSettings();
    const url = URLExt.join(settings.baseUrl, 'nbsight', 'graph');
    let view: GraphView;
    try {
      const response = await ServerConnection.makeRequest(
        url,
        { method: 'POST', body: JSON.stringify({ path: notebook.context.path, cells }) },
        settings
      );
      if (!response.ok) {
        if (current()) {
          this.sourceLabel.textContent = 'No graph: the Jupyter server has no nbsight';
        }
        return;
      }
      view = (await response.json()) as GraphView;
    } catch {
      return; // The server went away; the next edit asks again.
    }
    if (current() && !this.source?.graphing) {
      this.render(view);
    }
  }

  private render(view: GraphView): void {
    // A kernel's view of another notebook (two notebooks on one kernel
    // share its synced cells) is not this one's.
    if (
      view.origin === 'kernel' &&
      view.cells.length > 0 &&
      !view.cells.some(c => this.indexOf(c.id, 'kernel') >= 0)
    ) {
      return;
    }
    this.view = view;
    // Cells are named as the badges name them: 1-based positions in the
    // notebook, markdown included.
    for (const cell of view.cells) {
      const index = this.indexOf(cell.id);
      if (index >= 0) {
        cell.label = `cell ${index + 1}`;
      }
    }
    this.sourceLabel.textContent =
      view.origin === 'kernel'
        ? "From the kernel's executions"
        : 'Static: the notebook run top to bottom';
    this.drawing.draw(view, this.mode);
    const active = this.idOf(this.notebook?.content.activeCellIndex ?? -1);
    if (active === null || !view.cells.some(c => c.id === active)) {
      this.showCell(null);
    }
    this.onActiveCell();
  }
}
