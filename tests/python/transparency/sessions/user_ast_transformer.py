# The user's own AST transformer and input transformer, and showing every
# expression of a cell (ast_node_interactivity).
# %%
import ast
class DoubleInts(ast.NodeTransformer):
    def visit_Constant(self, node):
        if isinstance(node.value, int) and not isinstance(node.value, bool):
            return ast.copy_location(ast.Constant(node.value * 2), node)
        return node
ip = get_ipython()
doubler = DoubleInts()
ip.ast_transformers.append(doubler)
# %%
21
# %%
def f(x=5):
    return x + 1
f()
# %%
ip.ast_transformers.remove(doubler)
10, f()
# %%
def shout(lines):
    return [line.replace("hello", "HELLO") for line in lines]
ip.input_transformers_post.append(shout)
print("hello world")
# %%
ip.input_transformers_post.remove(shout)
print("hello again")
# %%
ip.ast_node_interactivity = "all"
1 + 1
"two"
x = 3
x
# %%
ip.ast_node_interactivity = "last_expr"
1 + 1
"only this"
# %%
class Broken(ast.NodeTransformer):
    def __repr__(self):
        return "Broken()"
    def visit_Name(self, node):
        raise ValueError("broken transformer")
ip.ast_transformers.append(Broken())
y = 1
# %%
len(ip.ast_transformers), y
