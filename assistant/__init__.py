"""Nova Table: the electronic Horologium, Perilium, dice reader and enemy AI for Nova Aetas."""

__version__ = "0.4.0"
