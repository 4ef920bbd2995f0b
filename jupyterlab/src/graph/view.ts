/**
 * The graph view nbsight draws: what `nbsight flow --format html` embeds,
 * the kernel sends (`graph`) and the Jupyter server answers
 * (`/nbsight/graph`). Field names are the Rust model's (`nbsight-graph`'s
 * `view.rs`).
 */

export interface GraphCell {
  id: string;
  label: string;
  code: string;
  inputs: string[];
  outputs: string[];
  /** `stale`, `fresh`, `refresher`, `never-run`, `syntax-error`, `opaque`. */
  states: string[];
}

export interface GraphEdge {
  from: string;
  to: string;
  symbols?: string[];
  /** A kernel view's arrow from a run its cell has made again since. */
  superseded?: boolean;
}

export interface Slices {
  backward: string[];
  forward: string[];
}

export interface SliceView {
  cell: string;
  direction: 'backward' | 'forward';
  cells: string[];
}

export interface GraphView {
  title: string;
  origin: 'static' | 'kernel';
  cells: GraphCell[];
  flows: GraphEdge[];
  dependencies: GraphEdge[];
  slices: { [cell: string]: Slices };
  slice?: SliceView;
}

/** Which arrows are drawn. */
export type EdgeMode = 'flows' | 'dependencies';

/** The slices of `cell`: the view's, else the closure over its arrows. */
export function slicesOf(view: GraphView, cell: string): Slices {
  const known = view.slices[cell];
  if (known) {
    return known;
  }
  const edges = [...view.flows, ...view.dependencies];
  const closure = (forward: boolean): string[] => {
    const seen = new Set<string>([cell]);
    const stack = [cell];
    while (stack.length > 0) {
      const at = stack.pop() as string;
      for (const e of edges) {
        const [here, there] = forward ? [e.from, e.to] : [e.to, e.from];
        if (here === at && !seen.has(there)) {
          seen.add(there);
          stack.push(there);
        }
      }
    }
    return view.cells.map(c => c.id).filter(id => seen.has(id));
  };
  return { backward: closure(false), forward: closure(true) };
}

/**
 * The cell dependency graph: the view's, else (a kernel's view, which does
 * not send it twice) each cell needing the cells of its backward slice.
 */
export function dependenciesOf(view: GraphView): GraphEdge[] {
  if (view.dependencies.length > 0) {
    return view.dependencies;
  }
  const edges: GraphEdge[] = [];
  for (const [cell, slices] of Object.entries(view.slices)) {
    for (const from of slices.backward) {
      if (from !== cell) {
        edges.push({ from, to: cell });
      }
    }
  }
  return edges;
}

/**
 * The arrows of the cell dependency graph not implied by others (its
 * transitive reduction): the full graph of a long notebook is mostly
 * arrows that say nothing new.
 */
export function reducedDependencies(view: GraphView): GraphEdge[] {
  const order = new Map(view.cells.map((c, i) => [c.id, i]));
  const needs = new Map<string, Set<string>>();
  const dependencies = dependenciesOf(view);
  for (const d of dependencies) {
    if (!needs.has(d.to)) {
      needs.set(d.to, new Set());
    }
    needs.get(d.to)!.add(d.from);
  }
  return dependencies.filter(d => {
    // Implied when some other cell `to` needs itself needs `from`.
    for (const via of needs.get(d.to) ?? []) {
      if (via !== d.from && (needs.get(via)?.has(d.from) ?? false)) {
        return false;
      }
    }
    return order.has(d.from) && order.has(d.to);
  });
}
