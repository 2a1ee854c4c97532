import type { i18n as I18n } from 'i18next';
import type { Container } from 'pixi.js';
import { Reconnects } from '../connection/reconnects.js';
import { errorKey, errorKind } from '../connection/error-kind.js';
import { listenForPresses, type FrameLoop } from '../pixi/frames.js';
import { sharpenTexts } from '../pixi/crisp.js';
import { sharpenLiveTexts } from '../ui/live-text.js';
import { forgetPress } from '../ui/button.js';
import { intlLocale } from '../../../locales/money.js';
import type { MessageKey } from '../../../locales/i18n.js';
import { stationView, type ProtocolError, type ReportBody, type StationState, type StationTables } from '../../../protocol/index.js';
import { HostClient } from '../connection/host-client.js';
import type { Transport } from '../connection/transport-contract.js';
import type { ScreenContext } from '../screens/screen.js';
import { followLanguage } from './follow-language.js';
import { joined, SeveralTablesScreen } from './several-screen.js';

export interface SeveralOptions {
  tables: StationTables;
  token: string;
  connect(index: number): Promise<Transport>;
  ctx: ScreenContext;
  i18n: I18n;
  /** After a table's view changed on screen: texts sharpened, the frame drawn at once. */
  drawn(): void;
  /** Given how this screen reports to its hosts (a lost WebGL context: to every table's host linked now). */
  reportsTo?(send: (body: ReportBody) => void): void;
}

/**
 * The screen of a station following several tables: one link per table, each with its own
 * client (its own view, versions and commands), each reconnecting by itself, so a table lost
 * leaves the others playing. Events for tests: `snapshot:<table>`, `credit:<table>:<amount>` (as
 * that table's host said), `closed:<table>`, `focus:<table>`, `language:<lang>`, `refused:<key>`.
 */
export function startSeveral(o: SeveralOptions): SeveralTablesScreen {
  const clients: (HostClient | null)[] = o.tables.tables.map(() => null);
  // Each table's recall asked for while its screen shows it (protocol 5), kept across that link's reconnects.
  const recallWanted: boolean[] = o.tables.tables.map(() => false);
  const screen = new SeveralTablesScreen(
    o.ctx,
    joined(
      o.tables,
      (i, c) => clients[i]?.command(c),
      (i, on) => {
        recallWanted[i] = on;
        clients[i]?.wantRecall(on);
      },
    ),
  );
  // Each table's newest snapshot: the one drawn again once a language's catalogue has come, never
  // the older one that asked for it (a snapshot that came meanwhile is not undone).
  const newest: (StationState | null)[] = o.tables.tables.map(() => null);
  const follow = followLanguage(o.i18n, (language, index) => {
    document.documentElement.lang = intlLocale(language);
    document.title = o.i18n.t('app.name');
    const state = newest[index];
    if (state) screen.render(index, state);
    o.drawn();
    o.ctx.emit(`language:${language}`);
  });
  o.reportsTo?.((body) => clients.forEach((c) => c?.report(body)));
  const fatal: (MessageKey | null)[] = o.tables.tables.map(() => null);
  o.tables.tables.forEach((table, index) => {
    const view = stationView(table.station);
    const reconnects = new Reconnects(); // each table's own: one restarting over and over slows no other
    const retry = () => setTimeout(() => void connect(), reconnects.next());
    const connect = async (): Promise<void> => {
      let transport: Transport;
      try {
        transport = await o.connect(index);
      } catch {
        screen.setLink(index, false, 'status.offline');
        o.drawn();
        retry();
        return;
      }
      const client = new HostClient(transport, view, {
        snapshot: (_view, _version, state) => {
          reconnects.up();
          if (state.kind !== 'station') return;
          newest[index] = state;
          screen.render(index, state);
          follow(screen.focusLanguage(), index);
          o.drawn();
          o.ctx.emit(`snapshot:${table.tableId}`);
          o.ctx.emit(`credit:${table.tableId}:${state.credit}`);
        },
        error: (e: ProtocolError) => {
          o.ctx.emit(`error:${table.tableId}:${e.code}`);
          const key = errorKey(e);
          if (errorKind(e) === 'fatal') {
            fatal[index] = key;
            screen.setLink(index, false, key);
          } else if (errorKind(e) === 'refused') {
            screen.refused(key);
            o.ctx.emit(`refused:${e.messageKey}`);
          }
          o.drawn();
        },
        closed: () => {
          o.ctx.emit(`closed:${table.tableId}`);
          screen.setLink(index, false, fatal[index] ?? 'status.offline');
          o.drawn();
          if (!fatal[index]) retry();
        },
      });
      clients[index] = client;
      if (recallWanted[index]) client.wantRecall(true);
      client.start(o.token);
    };
    void connect();
  });
  return screen;
}

/** What mounting the screen needs of the page's stage (renderer/src/main.ts). */
export interface SeveralStage {
  root: Container;
  frames: FrameLoop;
  onFit(listener: () => void): void;
  resolution(): number;
}

/** Mounts the several-tables screen on the stage: drawn at once after each change, sharpened at each fit. */
export function mountSeveral(o: Omit<SeveralOptions, 'drawn'> & SeveralStage): SeveralTablesScreen {
  const sharpen = () => {
    sharpenTexts(o.root, o.resolution());
    sharpenLiveTexts(o.root, o.resolution());
  };
  const several = startSeveral({
    ...o,
    drawn: () => {
      sharpen();
      o.frames.drawSoon();
    },
  });
  o.root.addChild(several.root);
  // Its cached layers at the display's resolution from the start (as main.ts does for one screen):
  // pixi's first fit came before `onFit` was listened to.
  several.sharpen(o.resolution());
  o.onFit(() => {
    sharpen();
    several.sharpen(o.resolution());
    o.frames.request();
  });
  // A press may change what the screen shows: drawn at once (as main.ts does for one table's screen).
  listenForPresses(o.frames, forgetPress);
  document.title = o.i18n.t('app.name');
  o.frames.request();
  o.ctx.emit('ready:several');
  return several;
}
