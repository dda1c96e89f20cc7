'use strict';
// Archive entries: the language server names a script or tree read from a
// .pk3/.iwd archive with an atrc-archive: URI (the archive's path, "!/", the
// entry; percent-encoded by the server, '!' included) and serves its text
// with the request atrc/archiveEntry.  VS Code re-encodes a URI it parses,
// so the client hands the server back the exact string the server sent.

const ARCHIVE_SCHEME = 'atrc-archive';

/**
 * @param {(s: string) => {scheme: string, toString(): string}} parse  vscode.Uri.parse
 * @returns the uriConverters of the language client's options
 */
function archiveUriConverters(parse) {
    const original = new Map(); /* VS Code's spelling -> the server's */
    return {
        protocol2Code(s) {
            const uri = parse(s);
            if (uri.scheme === ARCHIVE_SCHEME) original.set(uri.toString(), s);
            return uri;
        },
        code2Protocol(uri) {
            const s = uri.toString();
            return uri.scheme === ARCHIVE_SCHEME && original.has(s) ? original.get(s) : s;
        }
    };
}

module.exports = { ARCHIVE_SCHEME, archiveUriConverters };
