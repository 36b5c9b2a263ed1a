import { type PipedriveStandIn, startPipedriveStandIn } from './pipedrive-stand-in.ts';
import { startSiteverifyStandIn } from './siteverify-stand-in.ts';
import { type SmtpStandIn, startSmtpStandIn } from './smtp-stand-in.ts';

/** The outside services a lead or support request touches, as local stand-ins over the real protocols. */
export interface OutsideWorld {
  siteverify: Awaited<ReturnType<typeof startSiteverifyStandIn>>;
  pipedrive: PipedriveStandIn;
  smtp: SmtpStandIn;
  close(): Promise<void>;
}

export async function startOutsideWorld(): Promise<OutsideWorld> {
  const [siteverify, pipedrive, smtp] = await Promise.all([
    startSiteverifyStandIn(),
    startPipedriveStandIn(),
    startSmtpStandIn(),
  ]);
  return {
    siteverify,
    pipedrive,
    smtp,
    async close() {
      await Promise.all([siteverify.close(), pipedrive.close(), smtp.close()]);
    },
  };
}
