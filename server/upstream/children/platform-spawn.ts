import type { SpawnOptions } from 'node:child_process';
import * as path from 'node:path';
import { POSIX_SUPERVISOR_SCRIPT } from './supervisor-script.js';
import { withoutGatewaySecrets } from '../../util/gateway-secrets.js';

/** How each platform starts a stdio child and the supervisor: the one place that differs by platform. */
export interface PlatformSpawn {
  /** Each child in a process group of its own (POSIX); Windows has no groups and ends trees with taskkill. */
  childOptions: Pick<SpawnOptions, 'detached' | 'windowsHide' | 'shell'>;
  supervisor: { command: string; args: string[]; options: SpawnOptions };
}

/** Inside VS Code the gateway runs on Electron's binary: a Node child of it needs this to start as Node. */
export function electronAsNode(versions: NodeJS.ProcessVersions = process.versions): Record<string, string> {
  return versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {};
}

export function platformSpawn(
  graceMs: number,
  platform: NodeJS.Platform = process.platform,
  versions: NodeJS.ProcessVersions = process.versions,
): PlatformSpawn {
  const stdio: SpawnOptions['stdio'] = ['pipe', 'ignore', 'ignore'];
  if (platform === 'win32') {
    return {
      childOptions: { detached: false, windowsHide: true, shell: false },
      supervisor: {
        command: process.execPath,
        args: [path.join(__dirname, 'child-supervisor-node.js'), String(graceMs)],
        options: {
          stdio,
          env: { ...withoutGatewaySecrets(process.env), ...electronAsNode(versions) },
          windowsHide: true,
        },
      },
    };
  }
  return {
    childOptions: { detached: true, windowsHide: true, shell: false },
    // Detached too: a signal to the gateway's group (a terminal's Ctrl-C, `kill -- -pgid`) leaves it to clean up.
    supervisor: {
      command: '/bin/sh',
      args: ['-c', POSIX_SUPERVISOR_SCRIPT, 'grimoire-child-supervisor', String(Math.ceil(graceMs / 100))],
      options: { stdio, detached: true, env: withoutGatewaySecrets(process.env) },
    },
  };
}
