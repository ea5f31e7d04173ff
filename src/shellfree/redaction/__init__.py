"""Secret redaction applied to text before it reaches an agent's context."""
