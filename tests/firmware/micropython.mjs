// Run a test script under MicroPython's WebAssembly build (npm @micropython/micropython-webassembly-pyscript),
// with the .py files of the given folders (the firmware, the stand-ins of the board's modules) importable.
//   node micropython.mjs BUILD/micropython.mjs SCRIPT.py FOLDER...
// Exit status 1 with MicroPython's traceback on stderr where the script raises.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [build, script, ...folders] = process.argv.slice(2);
const { loadMicroPython } = await import(pathToFileURL(build).href);
const say = (stream) => (text) => stream.write(text + "\n");
const mp = await loadMicroPython({ stdout: say(process.stdout), stderr: say(process.stderr) });
mp.FS.mkdir("/lib");
for (const folder of folders) {
  for (const name of readdirSync(folder).filter((name) => name.endsWith(".py"))) {
    mp.FS.writeFile(`/lib/${name}`, readFileSync(join(folder, name)));
  }
}
mp.FS.writeFile("/lib/under_test.py", readFileSync(script));
try {
  mp.runPython("import sys\nsys.path.insert(0, '/lib')\nimport under_test");
} catch (error) {
  process.stderr.write(String(error) + "\n");
  process.exit(1);
}
