'use strict';
// The atrc extension: starts `atrc lsp` (the language server) over standard
// input/output for the gsc and atr languages this package declares.
// Settings: atrc.executable (the program; unset, the atrc a platform's
// package carries, else `atrc` on PATH), atrc.flags (command-line
// arguments sent as initializationOptions.flags), atrc.inlayHints.enabled
// (false: initializationOptions.inlayHints false, the server then offers
// no inlay hints), atrc.trace.server.
// Scripts and trees inside archives open read-only (atrc-archive: URIs,
// their text from the server's atrc/archiveEntry).

const vscode = require('vscode');
const { findExecutable, bundledExecutable, installSteps } = require('./lib/executable');
const { ARCHIVE_SCHEME, archiveUriConverters } = require('./lib/archive-uris');

let client = null;
let converters = null;
let output = null;
let extensionPath = null;

function workspaceRoot() {
    const folders = vscode.workspace.workspaceFolders;
    return folders && folders.length > 0 && folders[0].uri.scheme === 'file' ? folders[0].uri.fsPath : undefined;
}

function missingExecutable(setting) {
    const problem = /[\\/]/.test(setting) || setting.startsWith('~') ? 'is not an executable file' : 'was not found on PATH';
    const text = `atrc: the language server was not started: "${setting}" (setting atrc.executable) ${problem}. ` +
        installSteps(process.platform);
    output.appendLine(text);
    vscode.window.showErrorMessage(text, 'Open Settings').then(choice => {
        if (choice === 'Open Settings') {
            vscode.commands.executeCommand('workbench.action.openSettings', 'atrc.executable');
        }
    });
}

// What the server reads at initialize: the flags, and inlayHints only when
// turned off (the server's capability is decided then: a change restarts it).
function initializationOptions(flags, hints) {
    const options = Array.isArray(flags) && flags.length > 0 ? { flags: flags.map(String) } : {};
    if (hints === false) options.inlayHints = false;
    return options;
}

async function startClient() {
    const config = vscode.workspace.getConfiguration('atrc');
    const setting = config.get('executable', 'atrc');
    const root = workspaceRoot();
    // A platform's package carries its atrc: used unless the user named one.
    const set = config.inspect ? config.inspect('executable') : undefined;
    const configured = set && [set.globalValue, set.workspaceValue, set.workspaceFolderValue].some(v => v !== undefined);
    const command = (!configured && bundledExecutable(extensionPath)) || findExecutable(setting, { cwd: root });
    if (!command) {
        missingExecutable(setting);
        return;
    }
    const flags = config.get('flags', []);
    const hints = config.get('inlayHints.enabled', true);
    // Loaded here, once there is a server to talk to.
    const { LanguageClient } = require('vscode-languageclient/node');
    const serverOptions = { command, args: ['lsp'], options: { cwd: root } };
    const uris = archiveUriConverters(s => vscode.Uri.parse(s));
    const clientOptions = {
        documentSelector: [
            { scheme: 'file', language: 'gsc' },
            { scheme: 'file', language: 'atr' },
            { scheme: ARCHIVE_SCHEME, language: 'gsc' },
            { scheme: ARCHIVE_SCHEME, language: 'atr' }
        ],
        uriConverters: uris,
        initializationOptions: initializationOptions(flags, hints),
        synchronize: {
            fileEvents: vscode.workspace.createFileSystemWatcher('**/{*.gsc,*.gsx,*.atr,atrc.flags}')
        },
        outputChannel: output
    };
    const c = new LanguageClient('atrc', 'atrc', serverOptions, clientOptions);
    try {
        await c.start();
        client = c;
        converters = uris;
    } catch (err) {
        const text = `atrc: the language server (${command} lsp) did not start: ${err && err.message ? err.message : err}`;
        output.appendLine(text);
        vscode.window.showErrorMessage(text);
    }
}

async function stopClient() {
    const c = client;
    client = null;
    converters = null;
    if (c) {
        try {
            await c.stop();
        } catch (err) {
            output.appendLine(`atrc: stopping the language server: ${err && err.message ? err.message : err}`);
        }
    }
}

// One restart after another: settings events can come in a burst.
let restarting = Promise.resolve();
function restartClient() {
    restarting = restarting.then(stopClient).then(startClient).catch(err => {
        const text = `atrc: the language server did not start: ${err && err.message ? err.message : err}`;
        output.appendLine(text);
        vscode.window.showErrorMessage(text);
    });
    return restarting;
}

// A script or tree inside an archive (a definition's target), read-only.
async function archiveEntryText(uri, token) {
    if (!client) throw new Error(`atrc: the language server is not running, so ${uri.path} cannot be read from its archive`);
    const r = await client.sendRequest('atrc/archiveEntry', { uri: converters.code2Protocol(uri) }, token);
    if (!r || typeof r.text !== 'string') throw new Error(`atrc: the compilation read no archive entry ${uri.path}`);
    return r.text;
}

async function activate(context) {
    extensionPath = context.extensionPath || null;
    output = vscode.window.createOutputChannel('atrc');
    context.subscriptions.push(output);
    context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(ARCHIVE_SCHEME,
        { provideTextDocumentContent: archiveEntryText }));
    context.subscriptions.push(vscode.commands.registerCommand('atrc.restartServer', restartClient));
    context.subscriptions.push(vscode.workspace.onDidChangeConfiguration(e => {
        // the restart's promise, for whoever waits on it (the tests)
        if (['atrc.executable', 'atrc.flags', 'atrc.inlayHints.enabled'].some(k => e.affectsConfiguration(k))) {
            return restartClient();
        }
        return undefined;
    }));
    await restartClient();
}

function deactivate() {
    return stopClient();
}

module.exports = { activate, deactivate };
