"""`python manage.py grant_editor USERNAME [--remove]`: give a user the data-editor role — the
"Data editors" group, whose cards.edit_catalog permission opens the card editor — or take it away."""
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError

from cards.drafts import editor_group


class Command(BaseCommand):
    help = "Make a user a data editor (the 'Data editors' group): edit drafts, publish packages, review proposals."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--remove", action="store_true", help="take the role away instead")

    def handle(self, *args, username, remove, **options):
        user = User.objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user {username!r}")
        group = editor_group()
        if remove:
            user.groups.remove(group)
            self.stdout.write(f"{username} is no longer a data editor")
        else:
            user.groups.add(group)
            self.stdout.write(f"{username} is a data editor: the card editor is at /data/")
