"""The lessons: the path, one step at a time with its check, the glossary, progress on the device."""
