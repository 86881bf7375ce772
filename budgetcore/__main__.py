from budgetcore.cli import run

run()
