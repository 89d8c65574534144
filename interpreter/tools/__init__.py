"""The designer's tools, built on the language stage: the formatter (`fmt`), the
highlighters (`highlight`: a Pygments lexer and the TextMate grammar) and the language server
(`lsp`). They read rule files through the same parser and checker as every other command;
nothing in `language/`, `runtime/` or `play/` imports them.

No module is imported here, so a command loads only the tool it runs.
"""
