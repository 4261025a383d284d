/**
 * Lends VS Code's language model (vscode.lm, e.g. Copilot) to the gateway's summarizer: tells the
 * gateway whether a model can be asked, and answers its prompts. Consent is VS Code's: the first
 * request shows VS Code's consent dialog with the justification below; a model the user refused is
 * not offered again. Every failure goes back to the gateway as an error, which then summarizes otherwise.
 */
import * as vscode from 'vscode';
import * as protocol from '../protocol/extension-methods.js';
import type { GatewayClient } from './gateway-client.js';
import { chooseModel } from './model-choice.js';
import { VSCODE_SETTINGS } from '../protocol/vscode-settings.js';
import { LANGUAGE_MODEL_SETTING } from './settings.js';
const JUSTIFICATION = "Grimoire summarizes large MCP tool results so that they take less of the agent's context.";

export class LanguageModelLender implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[];
  private announced = '';

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly gateway: GatewayClient,
  ) {
    this.subscriptions = [
      gateway.onRequest(protocol.languageModelRequest, (params, token) => this.ask(params, token)),
      gateway.onDidConnect(() => void this.announce(true)),
      vscode.lm.onDidChangeChatModels(() => void this.announce()),
      context.languageModelAccessInformation.onDidChange(() => void this.announce()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(`grimoire.${LANGUAGE_MODEL_SETTING}`)) void this.announce();
      }),
    ];
  }

  private async usableModels(): Promise<vscode.LanguageModelChat[]> {
    if (
      !vscode.workspace
        .getConfiguration('grimoire')
        .get<boolean>(LANGUAGE_MODEL_SETTING, VSCODE_SETTINGS[LANGUAGE_MODEL_SETTING].default)
    )
      return [];
    const models = await vscode.lm.selectChatModels();
    // false: the user refused consent; undefined: not asked yet (the first request asks).
    return models.filter((model) => this.context.languageModelAccessInformation.canSendRequest(model) !== false);
  }

  /** Tells the gateway whether it may ask (again after a restart, since the new process does not know). */
  async announce(force = false): Promise<protocol.LanguageModelAvailability> {
    let models: vscode.LanguageModelChat[] = [];
    try {
      models = await this.usableModels();
    } catch (error) {
      this.gateway.channel.debug(`language models not readable: ${(error as Error).message}`);
    }
    const availability: protocol.LanguageModelAvailability = {
      available: models.length > 0,
      models: models.map((model) => `${model.vendor}/${model.name}`),
    };
    const key = JSON.stringify(availability);
    if (force || key !== this.announced) {
      this.announced = key;
      this.gateway.notify(protocol.languageModelAvailability, availability);
    }
    return availability;
  }

  private async ask(
    params: protocol.LanguageModelParams,
    token: vscode.CancellationToken,
  ): Promise<protocol.LanguageModelReply> {
    if (typeof params?.prompt !== 'string' || !params.prompt) throw new Error('no prompt');
    const model = chooseModel(await this.usableModels());
    if (!model) throw new Error('no VS Code language model is available');
    try {
      const response = await model.sendRequest(
        [vscode.LanguageModelChatMessage.User(params.prompt)],
        { justification: JUSTIFICATION },
        token,
      );
      let text = '';
      for await (const chunk of response.text) text += chunk;
      return { text, model: `${model.vendor}/${model.name}` };
    } catch (error) {
      if (error instanceof vscode.LanguageModelError)
        throw new Error(`VS Code language model ${model.name}: ${error.code || 'error'}: ${error.message}`);
      throw error;
    } finally {
      void this.announce();
    }
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
