//! The cell dependency graph as nbsight's front ends draw it. One view
//! model ([`GraphView`]) is made from a notebook's static information flows
//! ([`static_view`]: `nbsight flow`, `nbsight slice`, the JupyterLab panel
//! when the kernel has no nbsight) or from a live kernel's executions
//! ([`kernel_view`]: the panel, `nbsight.graph()`); [`page`] writes it as
//! one self-contained HTML file. The drawing itself (layout, interaction)
//! is TypeScript shared with the JupyterLab extension
//! (`jupyterlab/src/graph/`), bundled into `assets/graph.js` by
//! `scripts/build-graph-page`.

mod kernel;
mod page;
mod statics;
mod view;

pub use kernel::kernel_view;
pub use page::page;
pub use statics::{notebook_view, static_view};
pub use view::{Direction, GraphCell, GraphEdge, GraphView, Origin, SliceView, Slices};
