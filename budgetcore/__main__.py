import sys

from budgetcore.cli import main

sys.exit(main())
