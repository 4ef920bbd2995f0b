/**
 * What is shown of the selected cell beside the drawing: its code, the
 * names it reads and sets, and its slices, each cell named there a link
 * selecting it. Shared by the panel and the page.
 */

import { GraphView, Slices } from './view';

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (className) {
    e.className = className;
  }
  if (text !== undefined) {
    e.textContent = text;
  }
  return e;
}

export class CellDetails {
  readonly node: HTMLElement;
  /** Called when a cell named in the details is clicked. */
  onSelect: (cell: string) => void = () => undefined;

  constructor() {
    this.node = element('section', 'nbsight-graph-details');
    this.clear();
  }

  clear(): void {
    this.node.replaceChildren(
      element('p', 'nbsight-graph-hint', 'Click a cell to see its code, what it reads and sets, and its slices.')
    );
  }

  show(view: GraphView, cell: string, slices: Slices): void {
    const c = view.cells.find(x => x.id === cell);
    if (!c) {
      this.clear();
      return;
    }
    const label = (id: string) => view.cells.find(x => x.id === id)?.label ?? `cell ${id}`;
    const heading = element('h2', 'nbsight-graph-details-title', c.label);
    if (c.states.length > 0) {
      heading.appendChild(element('span', 'nbsight-graph-details-states', ` ${c.states.join(', ')}`));
    }
    const rows = element('dl');
    const names = (title: string, list: string[]) => {
      rows.appendChild(element('dt', undefined, title));
      const dd = element('dd');
      if (list.length === 0) {
        dd.textContent = '—';
      }
      list.forEach((name, i) => {
        if (i > 0) {
          dd.append(', ');
        }
        dd.appendChild(element('code', undefined, name));
      });
      rows.appendChild(dd);
    };
    const cells = (title: string, list: string[], kind: string) => {
      rows.appendChild(element('dt', undefined, title));
      const dd = element('dd', kind);
      const others = list.filter(id => id !== cell);
      if (others.length === 0) {
        dd.textContent = '—';
      }
      others.forEach((id, i) => {
        if (i > 0) {
          dd.append(', ');
        }
        const link = element('a', 'nbsight-graph-cell-link', label(id));
        link.href = '#';
        link.dataset.cell = id;
        link.addEventListener('click', event => {
          event.preventDefault();
          this.onSelect(id);
        });
        dd.appendChild(link);
      });
      rows.appendChild(dd);
    };
    names('Inputs (read from earlier cells)', c.inputs);
    names('Outputs (set for later cells)', c.outputs);
    cells('Backward slice (what its result needs)', slices.backward, 'nbsight-graph-backward');
    cells('Forward slice (what depends on it)', slices.forward, 'nbsight-graph-forward');
    const code = element('pre', 'nbsight-graph-code');
    code.textContent = c.code;
    this.node.replaceChildren(heading, rows, code);
  }
}
