'use strict';
// Finds the atrc executable the way a shell would: a setting holding a path
// names that file (relative to the workspace folder); a bare name is looked
// up in PATH (with PATHEXT's extensions on Windows).  Kept free of the
// vscode module so that the test runs it under plain node.

const fs = require('fs');
const path = require('path');

function isExecutableFile(file, platform) {
    let st;
    try {
        st = fs.statSync(file);
    } catch (e) {
        return false;
    }
    if (!st.isFile()) return false;
    if (platform === 'win32') return true;
    try {
        fs.accessSync(file, fs.constants.X_OK);
        return true;
    } catch (e) {
        return false;
    }
}

// The names to try for one candidate: on Windows `atrc` is also `atrc.exe`,
// `atrc.cmd`, ... unless it already has one of those extensions.
function candidates(file, platform, env) {
    if (platform !== 'win32') return [file];
    const exts = (env.PATHEXT || '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean);
    const ext = path.extname(file).toUpperCase();
    if (ext && exts.some(e => e.toUpperCase() === ext)) return [file];
    return [file].concat(exts.map(e => file + e.toLowerCase()));
}

/**
 * @param {string} command  the atrc.executable setting
 * @param {{cwd?: string, env?: object, platform?: string}} [opts]
 * @returns {string|null} the absolute path of the executable, or null
 */
function findExecutable(command, opts) {
    opts = opts || {};
    const env = opts.env || process.env;
    const platform = opts.platform || process.platform;
    const p = platform === 'win32' ? path.win32 : path.posix;
    if (typeof command !== 'string' || command.trim() === '') return null;
    command = command.trim();
    if (command === '~' || command.startsWith('~/')) {
        const home = env.HOME || env.USERPROFILE;
        if (!home) return null;
        command = p.join(home, command.slice(1));
    }
    const hasDir = command.includes('/') || (platform === 'win32' && command.includes('\\'));
    if (hasDir) {
        const file = p.resolve(opts.cwd || process.cwd(), command);
        return candidates(file, platform, env).find(f => isExecutableFile(f, platform)) || null;
    }
    const dirs = (env.PATH || env.Path || '').split(p.delimiter).filter(Boolean);
    for (const dir of dirs) {
        const found = candidates(p.join(dir, command), platform, env).find(f => isExecutableFile(f, platform));
        if (found) return p.resolve(found);
    }
    return null;
}

module.exports = { findExecutable };
