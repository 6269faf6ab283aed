"""What agents will run on their own (scan), and which tool calls ran without a decision."""
