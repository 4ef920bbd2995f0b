/**
 * The page `nbsight flow --format html` and `nbsight slice --format html`
 * write: reads the view embedded in the page and draws it with the code
 * the JupyterLab panel uses. Bundled with dagre into one script by
 * `scripts/build-graph-page`.
 */

import { CellDetails } from '../src/graph/details';
import { GraphDrawing } from '../src/graph/render';
import { EdgeMode, GraphView, dependenciesOf } from '../src/graph/view';

function main(): void {
  const data = document.getElementById('nbsight-graph-data');
  const host = document.getElementById('nbsight-graph');
  if (!data || !host) {
    return;
  }
  const view = JSON.parse(data.textContent ?? '{}') as GraphView;

  const header = document.createElement('header');
  header.className = 'nbsight-graph-header';
  const title = document.createElement('h1');
  title.textContent = view.title;
  const summary = document.createElement('p');
  summary.className = 'nbsight-graph-summary';
  const flowCount = view.flows.reduce((n, e) => n + (e.symbols?.length ?? 1), 0);
  summary.textContent =
    `${view.cells.length} code cells · ${view.flows.length} arrows carrying ${flowCount} flows · ` +
    `${dependenciesOf(view).length} dependencies` +
    (view.slice ? ` · ${view.slice.direction} slice of ${view.slice.cell}: ${view.slice.cells.length} cells` : '');

  const controls = document.createElement('div');
  controls.className = 'nbsight-graph-controls';
  const modes: [EdgeMode, string][] = [
    ['flows', 'Information flows'],
    ['dependencies', 'Cell dependencies']
  ];
  const drawing = new GraphDrawing();
  const details = new CellDetails();
  let mode: EdgeMode = 'flows';
  for (const [value, text] of modes) {
    const label = document.createElement('label');
    const input = document.createElement('input');
    input.type = 'radio';
    input.name = 'nbsight-graph-mode';
    input.value = value;
    input.checked = value === mode;
    input.addEventListener('change', () => {
      mode = value;
      drawing.draw(view, mode);
    });
    label.append(input, ` ${text}`);
    controls.appendChild(label);
  }
  const button = (text: string, action: () => void) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = text;
    b.addEventListener('click', action);
    controls.appendChild(b);
  };
  button('−', () => drawing.zoom(1 / 1.25));
  button('+', () => drawing.zoom(1.25));
  button('Fit', () => drawing.fit());
  header.append(title, summary, controls);

  const select = (cell: string) => {
    drawing.select(cell, true);
    details.show(view, cell, drawing.slices(cell));
  };
  drawing.onSelect = select;
  details.onSelect = select;

  const main = document.createElement('main');
  main.className = 'nbsight-graph-main';
  main.append(drawing.node, details.node);
  host.append(header, main);
  drawing.draw(view, mode);
  if (view.slice) {
    select(view.slice.cell);
  }
}

main();
