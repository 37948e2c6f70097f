import { createInterface } from 'node:readline';
import { STAFF_ROLES, type StaffRole } from '@provee/domain';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { prepareDatabase } from './prepare-database.js';
import { AppError } from './errors.js';
import { createPasswordHasher } from './modules/credit/password.js';
import { createStaff, isStaffRole, staffPasswordProblem } from './modules/staff/index.js';

const USAGE = `Uso: npm run staff:create -- --email correo@prestamista.com --role ${STAFF_ROLES.join('|')} [--name "Nombre Apellido"]
La contraseña se pide sin mostrarla (o se lee de la primera línea de la entrada estándar).`;

function argument(args: string[], name: string): string | undefined {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
}

/** The password, typed without echo at a terminal, or the first line of piped input. */
async function readPassword(prompt: string): Promise<string> {
  const input = process.stdin;
  if (!input.isTTY) {
    const lines = createInterface({ input });
    for await (const line of lines) return line;
    return '';
  }
  process.stdout.write(prompt);
  input.setRawMode(true);
  input.resume();
  return new Promise((resolve) => {
    let typed = '';
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') {
          input.setRawMode(false);
          input.pause();
          input.off('data', onData);
          process.stdout.write('\n');
          resolve(typed);
          return;
        }
        if (char === '\u0003') process.exit(130); // Ctrl+C
        typed = char === '\u007f' ? typed.slice(0, -1) : typed + char;
      }
    };
    input.on('data', onData);
  });
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const email = argument(args, 'email');
  const role = argument(args, 'role');
  if (!email || !role || !isStaffRole(role)) {
    console.error(USAGE);
    process.exit(2);
  }
  const config = loadConfig(process.env);
  if (!config.DATABASE_URL) {
    // The embedded database belongs to one process at a time: a running server holds it.
    const running = await fetch(`http://127.0.0.1:${config.PORT}/api/health`, {
      signal: AbortSignal.timeout(500),
    }).then(
      () => true,
      () => false,
    );
    if (running) {
      console.error(
        'El servidor está en marcha con la base de datos embebida: detenlo antes de crear la cuenta, ' +
          'o pide a un administrador que la cree en /backoffice/staff.',
      );
      process.exit(1);
    }
  }
  const password = await readPassword('Contraseña (mínimo 12 caracteres): ');
  const problem = staffPasswordProblem(password, { email, name: argument(args, 'name') });
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
  const database = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    await prepareDatabase(database);
    const row = await createStaff(
      { db: database.db, clock: () => new Date(), passwords: createPasswordHasher({ concurrency: 1, maxWaiting: 1 }) },
      { email, name: argument(args, 'name') ?? email.split('@')[0]!, role: role as StaffRole, password },
      'cli',
    );
    console.log(`Cuenta creada: ${row.email} (${row.role}). Inicia sesión en /backoffice/login.`);
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else if (error instanceof AppError) console.error(error.readableMessage);
  else console.error('No se pudo crear la cuenta:', error);
  process.exit(1);
});
