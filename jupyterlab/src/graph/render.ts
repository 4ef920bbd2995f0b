/**
 * Draws a graph view as SVG, laid out by dagre (layered, top to bottom:
 * a notebook reads downwards), with the selected cell's backward and
 * forward slices highlighted. Shared by the JupyterLab panel and the page
 * `nbsight flow --format html` writes.
 */

import dagre from '@dagrejs/dagre';

import {
  EdgeMode,
  GraphCell,
  GraphEdge,
  GraphView,
  Slices,
  reducedDependencies,
  slicesOf
} from './view';

const SVG = 'http://www.w3.org/2000/svg';
const NODE_WIDTH = 172;
const NODE_HEIGHT = 46;

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: { [name: string]: string | number } = {}
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) {
    element.setAttribute(name, String(value));
  }
  return element;
}

/** The first line of code worth showing, cut to `width` characters. */
export function firstLine(code: string, width = 24): string {
  const line =
    code
      .split('\n')
      .map(l => l.trim())
      .find(l => l.length > 0 && !l.startsWith('#')) ?? '(empty)';
  return line.length > width ? line.slice(0, width - 1) + '…' : line;
}

/** The arrows drawn in `mode`. */
export function edgesOf(view: GraphView, mode: EdgeMode): GraphEdge[] {
  return mode === 'flows' ? view.flows : reducedDependencies(view);
}

export class GraphDrawing {
  /** The element to put on the page. */
  readonly node: HTMLDivElement;
  /** Called when a cell's box is clicked. */
  onSelect: (cell: string) => void = () => undefined;

  private view: GraphView | null = null;
  /** What the current layout was made for (see `draw`). */
  private layoutKey = '';
  private mode: EdgeMode = 'flows';
  private selected: string | null = null;
  private scale = 1;
  private size = { width: 0, height: 0 };
  private svgRoot: SVGSVGElement | null = null;
  private boxes = new Map<string, SVGGElement>();
  private arrows: { edge: GraphEdge; element: SVGGElement }[] = [];

  constructor() {
    this.node = document.createElement('div');
    this.node.className = 'nbsight-graph-canvas';
    this.node.addEventListener(
      'wheel',
      event => {
        if (event.ctrlKey || event.metaKey) {
          event.preventDefault();
          this.zoom(event.deltaY < 0 ? 1.15 : 1 / 1.15);
        }
      },
      { passive: false }
    );
  }

  /** Forgets the drawing (another notebook). */
  clear(): void {
    this.view = null;
    this.layoutKey = '';
    this.selected = null;
    this.svgRoot = null;
    this.boxes = new Map();
    this.arrows = [];
    this.node.classList.remove('has-selection');
    this.node.replaceChildren();
  }

  /** Draws `view` with the arrows of `mode`; the selection is kept when
   * the cell is still there. When the cells and arrows are those drawn,
   * only the boxes' texts and states change: no new layout (a long
   * notebook's takes a second). */
  draw(view: GraphView, mode: EdgeMode = this.mode): void {
    const edgesNow = edgesOf(view, mode);
    const key = JSON.stringify([
      mode,
      view.cells.map(c => c.id),
      edgesNow.map(e => [e.from, e.to, e.symbols ?? [], e.superseded ?? false])
    ]);
    this.view = view;
    this.mode = mode;
    if (key === this.layoutKey && this.svgRoot) {
      this.relabel(view);
      if (this.selected !== null && !this.boxes.has(this.selected)) {
        this.selected = null;
      }
      this.highlight();
      return;
    }
    this.layoutKey = key;
    const graph = new dagre.graphlib.Graph({ multigraph: false });
    graph.setGraph({
      rankdir: 'TB',
      nodesep: 24,
      ranksep: 36,
      edgesep: 10,
      marginx: 12,
      marginy: 12
    });
    graph.setDefaultEdgeLabel(() => ({}));
    const known = new Set(view.cells.map(c => c.id));
    for (const cell of view.cells) {
      graph.setNode(cell.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
    }
    const edges = edgesNow.filter(
      e => known.has(e.from) && known.has(e.to) && e.from !== e.to
    );
    for (const e of edges) {
      graph.setEdge(e.from, e.to, {});
    }
    dagre.layout(graph);
    const label = graph.graph();
    this.size = {
      width: Math.max(label.width ?? NODE_WIDTH, NODE_WIDTH),
      height: Math.max(label.height ?? NODE_HEIGHT, NODE_HEIGHT)
    };

    const root = svg('svg', {
      class: 'nbsight-graph-svg',
      viewBox: `0 0 ${this.size.width} ${this.size.height}`,
      role: 'img',
      'aria-label': `${mode === 'flows' ? 'Information flows' : 'Cell dependencies'} of ${view.title}`
    });
    // One arrowhead per colour an arrow can take (a marker does not take
    // its path's colour).
    const defs = svg('defs');
    for (const kind of ['plain', 'backward', 'forward']) {
      const marker = svg('marker', {
        id: `nbsight-arrow-${kind}`,
        viewBox: '0 0 10 10',
        refX: 9,
        refY: 5,
        markerWidth: 7,
        markerHeight: 7,
        orient: 'auto-start-reverse'
      });
      marker.appendChild(
        svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: `nbsight-graph-arrowhead is-${kind}` })
      );
      defs.appendChild(marker);
    }
    root.appendChild(defs);

    const edgeLayer = svg('g', { class: 'nbsight-graph-edges' });
    this.arrows = [];
    for (const e of edges) {
      const points = graph.edge(e.from, e.to)?.points ?? [];
      const group = svg('g', {
        class: e.superseded ? 'nbsight-graph-edge is-superseded' : 'nbsight-graph-edge',
        'data-from': e.from,
        'data-to': e.to
      });
      if (e.symbols && e.symbols.length > 0) {
        group.setAttribute('data-symbols', e.symbols.join(' '));
      }
      const d = points
        .map((p: { x: number; y: number }, i: number) => `${i === 0 ? 'M' : 'L'} ${p.x.toFixed(1)} ${p.y.toFixed(1)}`)
        .join(' ');
      group.appendChild(svg('path', { d, 'marker-end': 'url(#nbsight-arrow-plain)' }));
      const title = svg('title');
      title.textContent =
        e.symbols && e.symbols.length > 0
          ? `${e.symbols.join(', ')}: from ${this.labelOf(e.from)} to ${this.labelOf(e.to)}` +
            (e.superseded ? ` (read from a run ${this.labelOf(e.from)} has made again since)` : '')
          : `${this.labelOf(e.to)} needs ${this.labelOf(e.from)}`;
      group.appendChild(title);
      if (e.symbols && e.symbols.length > 0 && points.length > 0) {
        const middle = points[Math.floor(points.length / 2)];
        const text = svg('text', {
          x: middle.x + 4,
          y: middle.y,
          class: 'nbsight-graph-edge-label'
        });
        const names = e.symbols.join(', ');
        text.textContent = names.length > 24 ? names.slice(0, 23) + '…' : names;
        group.appendChild(text);
      }
      edgeLayer.appendChild(group);
      this.arrows.push({ edge: e, element: group });
    }
    root.appendChild(edgeLayer);

    const nodeLayer = svg('g', { class: 'nbsight-graph-nodes' });
    this.boxes = new Map();
    for (const cell of view.cells) {
      const at = graph.node(cell.id);
      const group = svg('g', {
        class: ['nbsight-graph-node', ...cell.states.map(s => `is-${s}`)].join(' '),
        'data-cell': cell.id,
        transform: `translate(${(at.x - NODE_WIDTH / 2).toFixed(1)} ${(at.y - NODE_HEIGHT / 2).toFixed(1)})`,
        tabindex: 0,
        role: 'button'
      });
      group.appendChild(svg('rect', { width: NODE_WIDTH, height: NODE_HEIGHT, rx: 5 }));
      group.appendChild(svg('text', { x: 10, y: 18, class: 'nbsight-graph-node-label' }));
      group.appendChild(svg('text', { x: 10, y: 36, class: 'nbsight-graph-node-code' }));
      group.appendChild(svg('title'));
      this.label(group, cell);
      const select = () => {
        this.select(cell.id);
        this.onSelect(cell.id);
      };
      group.addEventListener('click', select);
      group.addEventListener('keydown', event => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          select();
        }
      });
      nodeLayer.appendChild(group);
      this.boxes.set(cell.id, group);
    }
    root.appendChild(nodeLayer);

    const first = this.svgRoot === null;
    this.node.replaceChildren(root);
    this.svgRoot = root;
    if (first) {
      // A first drawing wider than its canvas is scaled to fit, down to
      // 60 % (a long notebook's is then scrolled, still legible).
      const room = this.node.clientWidth - 8;
      if (room > 0 && this.size.width > room) {
        this.scale = Math.max(0.6, room / this.size.width);
      }
    }
    this.applyScale();
    if (this.selected !== null && !known.has(this.selected)) {
      this.selected = null;
    }
    this.highlight();
    if (first && view.cells.length > 0) {
      // The notebook's first cell in sight, where reading starts.
      this.boxes.get(view.cells[0].id)?.scrollIntoView({ block: 'nearest', inline: 'center' });
    }
  }

  /** A box's texts and state classes from `cell`. */
  private label(group: SVGGElement, cell: GraphCell): void {
    const [name, code, title] = Array.from(group.children).slice(1) as SVGElement[];
    name.textContent = cell.label + (cell.states.length > 0 ? ` · ${cell.states.join(', ')}` : '');
    code.textContent = firstLine(cell.code);
    title.textContent = cell.code;
    // The selection's classes are set again by `highlight`, which follows.
    group.setAttribute('class', ['nbsight-graph-node', ...cell.states.map(s => `is-${s}`)].join(' '));
  }

  private relabel(view: GraphView): void {
    for (const cell of view.cells) {
      const group = this.boxes.get(cell.id);
      if (group) {
        this.label(group, cell);
      }
    }
  }

  /** The arrows drawn, with their ends. */
  get edges(): GraphEdge[] {
    return this.arrows.map(a => a.edge);
  }

  /** Highlights `cell` and its slices (`null`: nothing selected). */
  select(cell: string | null, reveal = false): void {
    this.selected = cell;
    this.highlight();
    if (reveal && cell !== null) {
      this.boxes.get(cell)?.scrollIntoView({ block: 'nearest', inline: 'center' });
    }
  }

  /** The selected cell's slices (the view's, or those `nbsight slice` was
   * asked for). */
  slices(cell: string): Slices {
    const view = this.view;
    if (!view) {
      return { backward: [], forward: [] };
    }
    const slices = slicesOf(view, cell);
    if (view.slice && view.slice.cell === cell) {
      return view.slice.direction === 'backward'
        ? { ...slices, backward: view.slice.cells }
        : { ...slices, forward: view.slice.cells };
    }
    return slices;
  }

  zoom(factor: number): void {
    this.scale = Math.min(4, Math.max(0.1, this.scale * factor));
    this.applyScale();
  }

  /** Scales the drawing to the canvas's width. */
  fit(): void {
    const width = this.node.clientWidth - 8;
    if (width > 0 && this.size.width > 0) {
      this.scale = Math.min(1.5, Math.max(0.1, width / this.size.width));
      this.applyScale();
    }
  }

  private labelOf(cell: string): string {
    return this.view?.cells.find(c => c.id === cell)?.label ?? `cell ${cell}`;
  }

  private applyScale(): void {
    if (this.svgRoot) {
      this.svgRoot.setAttribute('width', (this.size.width * this.scale).toFixed(0));
      this.svgRoot.setAttribute('height', (this.size.height * this.scale).toFixed(0));
    }
  }

  private highlight(): void {
    const cell = this.selected;
    this.node.classList.toggle('has-selection', cell !== null);
    const slices = cell === null ? { backward: [], forward: [] } : this.slices(cell);
    const backward = new Set(slices.backward);
    const forward = new Set(slices.forward);
    for (const [id, box] of this.boxes) {
      box.classList.toggle('is-selected', id === cell);
      box.classList.toggle('in-backward', id !== cell && backward.has(id));
      box.classList.toggle('in-forward', id !== cell && forward.has(id));
    }
    for (const { edge, element } of this.arrows) {
      const inBackward = backward.has(edge.from) && backward.has(edge.to);
      const inForward = forward.has(edge.from) && forward.has(edge.to);
      element.classList.toggle('in-backward', inBackward);
      element.classList.toggle('in-forward', inForward);
      const kind = inBackward ? 'backward' : inForward ? 'forward' : 'plain';
      element.querySelector('path')?.setAttribute('marker-end', `url(#nbsight-arrow-${kind})`);
    }
  }
}
