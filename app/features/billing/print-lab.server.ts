import { readConfig } from "~/lib/config.server";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/lib/service-context.server";
import { localLab } from "./lab-local.server";
import { prodigiLab } from "./lab-prodigi.server";
import type { PrintCatalogue } from "./print-orders.constants";
import type { PrintLab } from "./print-lab.types";

/** The print lab PRINT_LAB_DRIVER names (print-lab.types.ts): the development lab, Prodigi, or none ("off": no prints are offered). */
export function printLabFor(ctx: ServiceContext, catalogue: PrintCatalogue): PrintLab {
  const driver = readConfig(ctx.env).PRINT_LAB_DRIVER;
  if (driver === "local") return localLab(ctx);
  if (driver === "prodigi") return prodigiLab(ctx, catalogue);
  throw new AppError("NOT_FOUND", "Prints are not offered here.");
}
