// The gdl extension: highlighting comes from the TextMate grammar (syntaxes/); this file
// starts the language server (`gdl lsp`, set by gdl.server.command) when the
// vscode-languageclient package is installed beside it (`npm install` in this folder).
// Without it, or with an empty command, the extension highlights only.
"use strict";

const vscode = require("vscode");

let client = null;

function activate(context) {
  const command = vscode.workspace.getConfiguration("gdl").get("server.command", ["gdl", "lsp"]);
  if (!command || command.length === 0) {
    return;
  }
  let languageclient;
  try {
    languageclient = require("vscode-languageclient/node");
  } catch (error) {
    vscode.window.showInformationMessage(
      "gdl: highlighting only; run 'npm install' in the extension's folder for the " +
      "language server.");
    return;
  }
  const server = { command: command[0], args: command.slice(1) };
  client = new languageclient.LanguageClient(
    "gdl", "gdl language server", server,
    { documentSelector: [{ scheme: "file", language: "gdl" }] });
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
