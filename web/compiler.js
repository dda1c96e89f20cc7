// The atrc CLI compiled to WebAssembly (atrc.js + atrc.wasm, from `make wasm`),
// run again and again over an in-memory file system.  Each run writes the
// editors' files under /work (scripts there, trees in /work/game/animtrees),
// calls main() with the arguments and reads back what it wrote.

const WORK = '/work';
const OUT = '/out/result.json';

export class Compiler {
  static async load() {
    const c = new Compiler();
    await c.instantiate();
    return c;
  }

  async instantiate() {
    this.stdout = [];
    this.stderr = [];
    // Byte by byte, so that the streams are decoded as UTF-8 exactly.
    this.module = await globalThis.createAtrc({
      stdout: (b) => { if (b !== null) this.stdout.push(b); },
      stderr: (b) => { if (b !== null) this.stderr.push(b); },
      stdin: () => null,
    });
    this.module.FS.mkdir('/out');
  }

  removeTree(path) {
    const FS = this.module.FS;
    let st;
    try { st = FS.lstat(path); } catch (e) { return; }
    if (FS.isDir(st.mode)) {
      for (const name of FS.readdir(path)) {
        if (name !== '.' && name !== '..') this.removeTree(path + '/' + name);
      }
      FS.rmdir(path);
    } else {
      FS.unlink(path);
    }
  }

  // files: [{path (relative to /work), text}]; args: atrc's arguments, which
  // must not include -o (the output goes to a file this class reads).
  // Returns {status, output, stderr, ms}.
  async run(files, args) {
    if (this.broken) await this.instantiate();
    const FS = this.module.FS;
    FS.chdir('/');
    this.removeTree(WORK);
    this.removeTree(OUT);
    FS.mkdir(WORK);
    for (const f of files) {
      const dir = f.path.includes('/') ? WORK + '/' + f.path.slice(0, f.path.lastIndexOf('/')) : WORK;
      FS.mkdirTree(dir);
      FS.writeFile(WORK + '/' + f.path, f.text);
    }
    FS.chdir(WORK);
    this.stdout.length = 0;
    this.stderr.length = 0;
    const t0 = performance.now();
    let status;
    try {
      status = this.module.callMain(['-o', OUT, ...args]);
    } catch (e) {
      // An abort leaves the instance unusable: the next run makes a new one.
      this.broken = true;
      return { status: 'crash', output: '', stderr: String(e), ms: performance.now() - t0 };
    }
    const ms = performance.now() - t0;
    let output = '';
    try { output = FS.readFile(OUT, { encoding: 'utf8' }); } catch (e) { /* nothing written */ }
    const dec = new TextDecoder('utf-8');
    return {
      status,
      output: output || dec.decode(new Uint8Array(this.stdout)),
      stderr: dec.decode(new Uint8Array(this.stderr)),
      ms,
    };
  }
}
