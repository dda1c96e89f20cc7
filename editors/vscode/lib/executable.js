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

// The atrc a platform's .vsix carries (make vsix-linux-x64, vsix-win32-x64):
// bin/<platform>-<arch>/atrc[.exe] inside the extension, or null.
function bundledExecutable(extDir, opts) {
    opts = opts || {};
    const platform = opts.platform || process.platform;
    const arch = opts.arch || process.arch;
    if (!extDir) return null;
    const file = path.join(extDir, 'bin', `${platform}-${arch}`, platform === 'win32' ? 'atrc.exe' : 'atrc');
    return isExecutableFile(file, platform) ? file : null;
}

// What to do when there is no atrc, in the platform's own steps.
function installSteps(platform) {
    if (platform === 'win32') {
        return 'Install the win32-x64 package of this extension (it carries atrc.exe), or unpack atrc.exe from ' +
            'atrc-<version>-win64.zip (make dist-windows) and set atrc.executable to its path (C:\\tools\\atrc.exe).';
    }
    return `Install the ${platform === 'linux' ? 'linux-x64' : 'platform'} package of this extension (it carries atrc), ` +
        'or build and install atrc (make && sudo make install in its source tree, or make install PREFIX=~/.local ' +
        'with ~/.local/bin on PATH), or set atrc.executable to the path of its build/atrc.';
}

module.exports = { findExecutable, bundledExecutable, installSteps };
