import 'reflect-metadata';
import { parseArgs } from 'node:util';
import type { INestApplicationContext, Type } from '@nestjs/common';
import { loadConfig } from '../config/app-config.js';
import { ConfigError } from '../config/env.parser.js';
import { type Command, type CommandContext, type OptionValues, UsageError } from './command.js';
import { INVENTORY_COMMANDS } from './import.command.js';
import { KEYS_COMMANDS } from './keys.command.js';
import { ORDERS_COMMANDS } from './orders.command.js';
import { terminalSafeLines } from './terminal-text.js';
import { WEBHOOKS_COMMANDS } from './webhooks.command.js';

const COMMANDS: readonly Command[] = [
  ...KEYS_COMMANDS,
  ...INVENTORY_COMMANDS,
  ...ORDERS_COMMANDS,
  ...WEBHOOKS_COMMANDS,
];

const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

const INVOCATION = 'npm run --silent cli --';
const HELP_FLAGS = ['-h', '--help'];

function synopsis(command: Command): string {
  return [...command.path, ...command.args, command.synopsis].filter(Boolean).join(' ');
}

function shortUsage(commands: readonly Command[]): string {
  return ['Usage:', ...commands.map((command) => `  ${INVOCATION} ${synopsis(command)}`)].join(
    '\n',
  );
}

function fullUsage(commands: readonly Command[]): string {
  return [
    `Usage: ${INVOCATION} <command> [options]`,
    '',
    'Commands:',
    ...commands.flatMap((command) => [
      `  ${synopsis(command)}`,
      ...command.description.split('\n').map((line) => `      ${line}`),
    ]),
    '',
    'Options:',
    '  -h, --help  Show this help.',
    '',
    'Commands use the same environment as the server (DATABASE_URL, APP_ENV, ...).',
    'Exit status: 0 done, 1 failed (nothing was changed), 2 bad usage.',
  ].join('\n');
}

function write(stream: NodeJS.WriteStream, text: string): void {
  stream.write(`${terminalSafeLines(text)}\n`);
}

function relevantCommands(argv: string[]): readonly Command[] {
  const group = COMMANDS.filter((candidate) => candidate.path[0] === argv[0]);
  return group.length > 0 ? group : COMMANDS;
}

function matchCommand(argv: string[]): Command | undefined {
  return COMMANDS.find((candidate) => candidate.path.every((word, i) => argv[i] === word));
}

function unknownCommand(argv: string[]): UsageError {
  const group = COMMANDS.filter((candidate) => candidate.path[0] === argv[0]);
  if (group.length === 0) {
    return new UsageError(
      argv[0] === undefined ? 'no command given' : `unknown command ${JSON.stringify(argv[0])}`,
    );
  }
  const names = group.map((candidate) => candidate.path.slice(1).join(' ')).join(', ');
  const given = argv[1] === undefined || argv[1].startsWith('-') ? undefined : argv[1];
  return new UsageError(
    given === undefined
      ? `${argv[0]} needs a command: ${names}`
      : `unknown command "${argv[0]} ${given}"`,
  );
}

// parseArgs would take `--per-minute -3` for a flag; joined, the option's own check explains it.
function joinNegativeValues(command: Command, args: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const name = /^--([^=]+)$/.exec(args[i])?.[1];
    const next = args[i + 1];
    if (
      name &&
      command.options[name]?.type === 'string' &&
      next !== undefined &&
      /^-\d/.test(next)
    ) {
      joined.push(`${args[i]}=${next}`);
      i++;
    } else {
      joined.push(args[i]);
    }
  }
  return joined;
}

function optionValueError(err: Error): UsageError {
  const option = /'(-[^' ]+)/.exec(err.message)?.[1] ?? 'an option';
  return new UsageError(
    /does not take an argument/.test(err.message)
      ? `${option} takes no value`
      : `${option} needs a value (one that starts with a dash is written ${option}=-VALUE)`,
  );
}

function parseCommandLine(
  command: Command,
  argv: string[],
): { options: OptionValues; args: Record<string, string> } {
  let parsed;
  try {
    parsed = parseArgs({
      args: joinNegativeValues(command, argv.slice(command.path.length)),
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      throw new UsageError(
        `unknown option ${(err as Error).message.match(/'([^']*)'/)?.[1] ?? ''}`.trimEnd(),
      );
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') throw optionValueError(err as Error);
    if (code?.startsWith('ERR_PARSE_ARGS')) throw new UsageError((err as Error).message);
    throw err;
  }
  const options = parsed.values as OptionValues;
  if (options.help) return { options, args: {} };
  const [missing] = command.args.slice(parsed.positionals.length);
  if (missing !== undefined) throw new UsageError(`missing ${missing}`);
  const [extra] = parsed.positionals.slice(command.args.length);
  if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(extra)}`);
  return {
    options,
    args: Object.fromEntries(command.args.map((name, i) => [name, parsed.positionals[i]])),
  };
}

// INIT_CWD is inherited below any npm script: trusted only when npm started this very one.
function callerDirectory(): string {
  const { INIT_CWD, npm_lifecycle_event } = process.env;
  return npm_lifecycle_event === 'cli' && INIT_CWD ? INIT_CWD : process.cwd();
}

async function run(argv: string[]): Promise<number> {
  let app: INestApplicationContext | undefined;
  const ctx: CommandContext = {
    cwd: callerDirectory(),
    out: (line) => write(process.stdout, line),
    err: (line) => write(process.stderr, line),
    async get<T>(type: Type<T>): Promise<T> {
      if (!app) {
        const config = loadConfig(process.env);
        const [{ NestFactory }, { CliModule }] = await Promise.all([
          import('@nestjs/core'),
          import('./cli.module.js'),
        ]);
        app = await NestFactory.createApplicationContext(CliModule.forRoot(config), {
          logger: false,
          abortOnError: false,
        });
      }
      return app.get(type);
    },
  };

  let command: Command | undefined;
  try {
    command = matchCommand(argv);
    if (!command && (argv[0] === 'help' || argv.some((arg) => HELP_FLAGS.includes(arg)))) {
      write(process.stdout, fullUsage(relevantCommands(argv)));
      return EXIT_OK;
    }
    if (!command) throw unknownCommand(argv);
    const input = parseCommandLine(command, argv);
    if (input.options.help) {
      write(process.stdout, fullUsage([command]));
      return EXIT_OK;
    }
    await command.run(ctx, input);
    return EXIT_OK;
  } catch (err) {
    if (err instanceof UsageError && !err.showUsage) {
      write(process.stderr, `Error: ${err.message}`);
      return EXIT_USAGE;
    }
    if (err instanceof UsageError) {
      write(
        process.stderr,
        `Error: ${err.message}\n${shortUsage(command ? [command] : relevantCommands(argv))}`,
      );
      write(process.stderr, `Run "${INVOCATION} --help" for details.`);
      return EXIT_USAGE;
    }
    if (err instanceof ConfigError) {
      write(process.stderr, `Invalid configuration: ${err.message}`);
      return EXIT_FAILED;
    }
    write(process.stderr, `Error: ${err instanceof Error ? err.message : String(err)}`);
    return EXIT_FAILED;
  } finally {
    await app?.close();
  }
}

process.exitCode = await run(process.argv.slice(2));
