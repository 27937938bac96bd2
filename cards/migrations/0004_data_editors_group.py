"""The data-editor role: a "Data editors" group holding cards.edit_catalog. An operator makes a
user an editor by adding them to it (the admin site, or `manage.py grant_editor USERNAME`)."""
from django.db import migrations

GROUP = "Data editors"


def create_group(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    # post_migrate makes the permission too, but after every migration: make it now (the same row)
    content_type, _ = ContentType.objects.get_or_create(app_label="cards", model="packagedraft")
    permission, _ = Permission.objects.get_or_create(
        content_type=content_type, codename="edit_catalog",
        defaults={"name": "Can edit package drafts, publish them and review proposed corrections"})
    group, _ = Group.objects.get_or_create(name=GROUP)
    group.permissions.add(permission)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [("cards", "0003_card_editor"), ("auth", "0012_alter_user_first_name_max_length"),
                    ("contenttypes", "0002_remove_content_type_name")]
    operations = [migrations.RunPython(create_group, remove_group)]
