import { IntentForm } from "~/components/intent-form";
import { buttonClassName } from "~/components/ui/button";
import { nativeSelectClassName } from "~/components/ui/native-select";

/** "Move to team" on a list row (a form, a receive page): the teams to choose from and one button; the page's action does the move (intent "move"). */
export function MoveToTeamForm({ field, id, title, teams }: { field: string; id: string; title: string; teams: readonly { id: string; name: string }[] }) {
  return (
    <IntentForm intent="move" fields={{ [field]: id }} className="flex items-center gap-1">
      <label className="sr-only" htmlFor={`move-${id}`}>
        Team to move {title} into
      </label>
      <select id={`move-${id}`} name="teamId" className={nativeSelectClassName}>
        {teams.map((team) => (
          <option key={team.id} value={team.id}>
            {team.name}
          </option>
        ))}
      </select>
      <button type="submit" className={buttonClassName({ variant: "ghost", size: "sm" })} aria-label={`Move ${title} into the chosen team`}>
        Move to team
      </button>
    </IntentForm>
  );
}
