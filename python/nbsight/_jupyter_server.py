"""The Jupyter server side of nbsight's JupyterLab extension: `POST
/nbsight/graph` answers a notebook's cell dependency graph (the static one,
`nbsight flow`'s) from the cells the browser sends, for notebooks whose kernel
has no nbsight. Enabled by the `jupyter_server_config.d/nbsight.json` the
wheel installs; the analysis is the native module's (`static_graph_json`).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from nbsight._nbsight import static_graph_json


def graph_of(body: Any) -> str:
    """The graph view (JSON text) of a request body `{"path": str, "cells":
    [[kind, source], ...]}`; `ValueError` when the body is not that."""
    if not isinstance(body, dict):
        raise ValueError("expected a JSON object with 'path' and 'cells'")
    path = body.get("path", "")
    cells = body.get("cells")
    if not isinstance(path, str):
        raise ValueError("'path' must be a string")
    if not isinstance(cells, list) or not all(
        isinstance(c, list) and len(c) == 2 and all(isinstance(x, str) for x in c) for c in cells
    ):
        raise ValueError("'cells' must be a list of [kind, source] pairs of strings")
    return static_graph_json(path or "notebook.ipynb", [(c[0], c[1]) for c in cells])


def _load_jupyter_server_extension(server_app: Any) -> None:
    from jupyter_server.base.handlers import APIHandler
    from jupyter_server.utils import url_path_join
    from tornado import web

    class GraphHandler(APIHandler):
        @web.authenticated
        async def post(self) -> None:
            # The analysis runs beside the server's event loop (the native
            # code releases the GIL): other requests are not held up.
            try:
                body = json.loads(self.request.body or b"null")
                answer = await asyncio.get_running_loop().run_in_executor(None, graph_of, body)
            except ValueError as error:
                self.set_status(400)
                self.finish(json.dumps({"message": f"nbsight: {error}"}))
                return
            self.set_header("Content-Type", "application/json")
            self.finish(answer)

    web_app = server_app.web_app
    route = url_path_join(web_app.settings["base_url"], "nbsight", "graph")
    web_app.add_handlers(".*$", [(route, GraphHandler)])
    server_app.log.info("nbsight: serving the cell dependency graph at %s", route)
