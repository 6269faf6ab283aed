"""What a hook's run means to the service: output parsed and validated, blocks, error classes."""
