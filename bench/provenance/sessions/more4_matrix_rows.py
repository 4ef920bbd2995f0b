# %% c1
grid = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
scale = 10
# %% c2
row_sums = [sum(row) for row in grid]
col_max = [max(col) for col in zip(*grid)]
scaled_diag = [grid[i][i] * scale for i in range(len(grid))]
# ask: row_sums[1]
# ask: col_max
# ask: scaled_diag[2]
