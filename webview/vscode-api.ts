/** The webview's one handle on VS Code: messages to the extension and the state kept across reloads. */
import type { DashboardRequest, DashboardState } from '../protocol/dashboard-messages.js';

interface VsCodeApi {
  postMessage(message: DashboardRequest): void;
  getState(): DashboardState | undefined;
  setState(state: DashboardState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

export function send(message: DashboardRequest): void {
  api.postMessage(message);
}

export function savedState(): DashboardState | undefined {
  return api.getState();
}

export function saveState(state: DashboardState): void {
  api.setState(state);
}
