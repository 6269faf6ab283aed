"""OpenCode's settings as hookwise reads them (Kilo, its fork, reads them alike)."""
