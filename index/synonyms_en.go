package index

// synonymsEN lists sets of English near-synonyms ("synsets"): words a person
// uses interchangeably when telling an assistant about the same fact of their
// life ("my mum" / "my mother", "my kitty" / "my cat", "films" / "movies",
// "salary" / "pay"), so that candidate lookup can join two such facts.
//
// Format: one set per line, words separated by single spaces, lowercase; the
// first word names the set; lines starting with # are comments. Sets hold
// true synonyms, colloquial, short and baby-talk forms, British/American
// variants, a general word with its everyday specific forms, and derived or
// irregular forms that the Snowball stemmer does not join (fracture/broken,
// child/children, buy/bought). Words are run through the same analysis as
// text (English Snowball stemming, stop words), so inflections are not
// listed. A word appears in more than one set only when it has more than one
// everyday sense (chips, pants, coach) or is the general word of several
// narrower sets (spouse, partner, sibling).
const synonymsEN = `
# ---------------------------------------------------------------- family
mother mum mom mummy mommy mam mama momma mamma ma mumsy
father dad daddy papa pa dada pappy
parent parents folks
stepmother stepmom stepmum
stepfather stepdad
grandmother grandma granny nan nana nanna gran grandmom gramma grannie granma babushka
grandfather grandpa granddad grandad gramps grandpop grandpapa grampa granpa
grandchild grandchildren grandkid
grandson grandchild grandkid
granddaughter grandchild grandkid
child children kid kiddo youngster offspring tyke kiddie nipper sprog bairn
son sonny
boy lad laddie
girl lass lassie
stepson stepchild stepkid
stepdaughter stepchild stepkid
baby infant newborn bub bubba
toddler tot
teenager teen adolescent teenage
brother bro sibling
sister sis sibling sissy
stepbrother stepsibling
stepsister stepsibling
aunt auntie aunty
uncle unc nunky
cousin cuz coz
relative relation kin kinfolk kinsman
family household
godmother godparent godmum
godfather godparent goddad
godson godchild
goddaughter godchild
ancestor forefather forebear

# ---------------------------------------------------------------- relationships
husband spouse hubby hubs
wife wives spouse missus wifey
boyfriend partner bf beau
girlfriend partner gf
fiance fiancee
marriage marry wed wedding wedlock matrimony nuptials
engagement engaged betrothal
divorce divorcee
separation breakup
unmarried single unattached
bachelor singleton
relationship romance
crush infatuation
darling honey sweetheart sweetie babe hun
friend pal buddy mate chum bestie bff amigo homie
classmate schoolmate schoolfriend coursemate
penpal penfriend
neighbour neighbor
roommate flatmate housemate roomie
landlord landlady
tenant renter lodger
colleague coworker co-worker workmate
teammate team-mate
mentor adviser advisor
gay homosexual
transgender trans
heterosexual straight
man men guy bloke chap fella dude gent gentleman geezer
woman women lady gal
person people individual
groom bridegroom
kiss snog smooch
hug cuddle embrace

# ---------------------------------------------------------------- pets and animals
cat kitty kitten puss pussycat moggy moggie feline tomcat
dog doggy doggie doggo pooch puppy pup hound canine mutt
rabbit bunny
parakeet budgie budgerigar
parrot macaw cockatoo
tortoise turtle terrapin
horse pony mare stallion gelding steed foal filly colt
mouse mice
pet animal critter
vet veterinarian
kennel doghouse
neuter spay castrate
walk stroll walkies amble
hen chicken chook
cow cattle
pig hog swine
aquarium fishtank
snake serpent
lizard gecko
ferret polecat
donkey burro
bird birdie
insect bug
spider arachnid
fishing angling angler fisherman
petsitter dogsitter catsitter
cage birdcage
mosquito mozzie skeeter
kangaroo roo
ladybird ladybug
reindeer caribou

# ---------------------------------------------------------------- health and medicine
doctor doc physician gp dr
dentist dental
clinic surgery
operation surgery op surgeon
hospital infirmary hospitalised hospitalized
physio physiotherapist physiotherapy
therapist counsellor counselor psychotherapist shrink therapy counselling counseling psychotherapy psychiatrist
psychologist psych
optician optometrist ophthalmologist
pharmacy chemist drugstore apothecary pharmacist
medication medicine meds drug
pill tablet capsule
prescription script rx
painkiller analgesic
paracetamol acetaminophen tylenol panadol calpol
ibuprofen advil nurofen motrin
antibiotic penicillin amoxicillin
antihistamine cetirizine loratadine zyrtec claritin benadryl
antidepressant ssri sertraline fluoxetine prozac zoloft citalopram
inhaler puffer
vitamin multivitamin supplement
vaccine vaccination jab immunisation immunization inoculation shot
injection syringe
flu influenza
fever temperature
headache migraine
stomachache bellyache
stomach tummy belly abdomen gut tum
pain ache soreness sore
injury injured wound
fracture broken break broke
sprain strain
heal recover recovery recuperate recuperation
ill sick unwell poorly
disease disorder ailment malady
allergy allergic
asthma asthmatic
hypertension bp
heart cardiac
pregnant pregnancy
childbirth birth
period menstruation menstrual
anxiety anxious
stress pressure tension
tired exhausted knackered shattered weary fatigue fatigued
disabled disability handicap handicapped
autism autistic asd
dyslexia dyslexic
epilepsy epileptic
arthritis arthritic
anaemia anemia anaemic anemic
anorexia anorexic
obese obesity overweight chubby plump
tumour tumor
chemo chemotherapy
covid coronavirus corona
xray x-ray radiograph
ultrasound sonogram
emergency casualty
ambulance paramedic emt
midwife midwifery
gynaecologist gynecologist gyno
paediatrician pediatrician
orthodontist braces
cholesterol lipids
cold sniffles
nausea nauseous queasy sick
vomit puke barf
diarrhoea diarrhea
rash hives
eczema dermatitis
acne pimple zit
bleed bleeding blood
stitches sutures
plaster bandaid
glasses spectacles specs eyeglasses
eyesight vision sight
insomnia sleeplessness insomniac
sleep slumber kip asleep slept shuteye
nap snooze doze siesta catnap
sleepy drowsy
wake woke awake woken
dream dreamt dreamed
sunburn sunburnt
iud coil
overdose od

# ---------------------------------------------------------------- body and appearance
tooth teeth
foot feet
knee kneecap
spine backbone
bum butt buttocks backside arse tush derriere
skin complexion
tattoo tat
beard stubble goatee
moustache mustache tache
haircut trim
hairstyle hairdo
hairdresser hairstylist stylist barber salon
redhead ginger
thin slim skinny slender
weight weigh
breasts boobs bust
penis willy
eyebrow brow
nail fingernail toenail
makeup cosmetics
perfume fragrance scent cologne
deodorant deo antiperspirant
razor shaver
lipstick lippy
sunscreen sunblock suncream spf
moisturiser moisturizer lotion
wrinkle crease

# ---------------------------------------------------------------- food and drink
food grub nosh chow scran
breakfast brekkie brekky
lunch luncheon
dinner supper
snack nibble munchies
dessert pudding pud afters
candy sweets confectionery
chocolate choc choccy
biscuit cookie bikkie biccy
crisps chips
fries chips
aubergine eggplant brinjal
courgette zucchini
coriander cilantro
rocket arugula
prawn shrimp
capsicum pepper
beetroot beet
swede rutabaga
chickpea garbanzo
cornflour cornstarch
icing frosting
jam jelly preserves
jelly jello
lolly popsicle icelolly
starter appetizer appetiser
vegetable veg veggie
vegetarian veggie
coeliac celiac
teetotal teetotaller teetotaler sober sobriety
alcohol booze liquor
drunk tipsy intoxicated hammered sloshed
hangover hungover
beer lager ale pint stout brew ipa
wine vino plonk
whisky whiskey scotch bourbon
coffee espresso latte cappuccino americano mocha macchiato cortado
tea cuppa chai
soda pop fizzy
cola coke pepsi
squash cordial
sandwich sarnie butty hoagie
burger hamburger cheeseburger
pasta spaghetti penne macaroni
noodles ramen udon
porridge oatmeal oats
cereal muesli granola cornflakes
yoghurt yogurt
takeaway takeout carryout
restaurant eatery diner bistro brasserie
cafe café coffeeshop coffeehouse
pub bar tavern boozer alehouse
chef cook
barbecue bbq barbeque grill cookout
favourite favorite fave fav
lamb mutton
sausage banger
potato spud
bread loaf
cake gateau sponge
pie tart
pancake crepe blini
doughnut donut
icecream ice-cream gelato
carb carbohydrate
calorie kcal
dietitian dietician nutritionist
mangetout snowpea
gammon ham
bacon rasher
treacle molasses
borscht borsch borshch

# ---------------------------------------------------------------- home and housing
flat apartment condo condominium
house home residence dwelling abode
bedsit studio
cottage cabin chalet
dorm dormitory
rent rental lease hire
mortgage remortgage
deposit downpayment
relocate relocation move
neighbourhood neighborhood district hood locality vicinity
suburb outskirts suburbia
centre center downtown
village hamlet
countryside rural
garden yard backyard
balcony terrace veranda verandah patio
porch stoop
garage carport
basement cellar
attic loft
toilet loo restroom washroom lavatory wc bathroom lav privy
sofa couch settee
wardrobe closet armoire
cupboard cabinet
fridge refrigerator icebox
stove cooker hob stovetop oven
tap faucet
sink basin washbasin
bin trashcan dustbin wastebasket
rubbish trash garbage refuse litter
radiator heater
aircon ac
bill invoice
electricity power
internet broadband web
wifi wi-fi wireless
furniture furnishings
carpet rug
curtain drape
duvet quilt comforter doona
renovation refurbishment remodel refurb
repair fix mend
cleaner housekeeper maid
lift elevator
torch flashlight
hoover vacuum
dryer drier tumble-dryer
cutlery silverware flatware
napkin serviette
crockery dishes
storey floor
janitor caretaker custodian superintendent
flatshare houseshare
housework chores
laundry washing
laundromat launderette
shed outbuilding
doorbell bell
lock padlock
hallway corridor hall
staircase stairs stairway
roof rooftop
kitchen kitchenette
pantry larder
mailbox letterbox postbox
mat doormat
blinds shutters
bulb lightbulb
socket outlet powerpoint
mould mold mildew
pest vermin
cockroach roach
movers removals removalists
coolbox esky
futon sofabed
bookcase bookshelf
bath bathtub tub
townhouse rowhouse
mansion manor
shack hut hovel
dacha summerhouse
banya sauna

# ---------------------------------------------------------------- work and jobs
job work employment occupation gig
career profession vocation
salary pay paid wage earnings income paycheck paycheque remuneration compensation
raise payrise
promotion advancement
bonus incentive
boss manager supervisor superior gaffer
employee worker staffer
company firm corporation
sack dismiss fire
layoff redundancy
unemployed jobless unemployment
retirement retire retiree pensioner oap pension
freelance freelancer self-employed contractor freelancing
intern internship trainee apprentice apprenticeship
cv resume
office workplace
remote wfh telework
shift rota roster
department dept division
headquarters hq
customer client
meeting meetup
appointment appt
lawyer attorney solicitor barrister advocate
accountant bookkeeper cpa
police cop policeman policewoman copper fuzz
firefighter fireman
waiter waitress server waitstaff
cashier teller
secretary assistant pa
driver motorist chauffeur
electrician sparky
salesman saleswoman salesperson rep
scientist researcher
journalist journo newsman
artist painter
actor actress
soldier serviceman servicewoman
army military
veteran vet
carer caregiver
headteacher headmaster headmistress principal
programmer developer coder dev
teacher educator schoolteacher teach taught
postman mailman postie postwoman
dustman binman garbageman
founder cofounder co-founder
owner proprietor
entrepreneur businessman businesswoman
translator interpreter
pilot aviator
stewardess steward attendant
politician mp lawmaker legislator
judge magistrate
priest vicar pastor clergyman reverend padre
holiday vacation hols vacay getaway
recruit hire recruiter headhunter
contract agreement
strike walkout
payslip paystub
hr personnel
dole welfare
freshman fresher
frat fraternity
detective investigator sleuth
carpenter joiner chippy
bricklayer brickie
tailor seamstress dressmaker
cobbler shoemaker

# ---------------------------------------------------------------- education and languages
university uni varsity college
student study undergrad undergraduate learner
pupil schoolkid schoolchild schoolboy schoolgirl
trainer coach instructor tutor
professor prof lecturer
lesson class
degree diploma qualification
phd dphil
graduate grad alumnus alumni
exam examination finals
test quiz
homework assignment coursework
grade mark score
semester trimester
scholarship bursary grant
kindergarten preschool pre-k kinder
daycare creche nursery childcare
babysitter sitter nanny childminder
maths math mathematics
biology bio
economics econ
chemistry chem
geography geog
compsci cs
thesis dissertation
textbook coursebook
notebook notepad jotter
pen biro ballpoint
rubber eraser
backpack rucksack schoolbag bookbag knapsack
timetable schedule
break recess playtime
cram swot
fluent fluency proficient
language lingo
vocabulary vocab
learn learnt
certificate cert

# ---------------------------------------------------------------- money and shopping
money cash dosh dough funds moolah wonga
pound quid sterling gbp
dollar buck usd
euro eur
ruble rouble
stocks shares equities
loan borrowing
debt owe
spend spent spending expenditure
price cost
cheap inexpensive affordable
expensive pricey
broke skint penniless
rich wealthy affluent
refund reimbursement repayment
insurance coverage
tip gratuity
wallet purse billfold
crypto cryptocurrency bitcoin
buy purchase bought
sell sold
atm cashpoint cashmachine
overdraft overdrawn
investor shareholder
charity nonprofit non-profit ngo
shop store boutique
supermarket grocer grocery
market marketplace bazaar
parcel package
discount reduction markdown
coupon voucher
checkout till
scam fraud swindle
robbery holdup stickup
thief burglar robber
bankrupt insolvent

# ---------------------------------------------------------------- transport and travel
car motor auto automobile vehicle motorcar
truck lorry
bus coach
train rail railway railroad
subway metro underground tube
tram streetcar trolley
taxi cab minicab uber
plane airplane aeroplane aircraft airliner
flight fly flew flown
bike bicycle cycle cyclist pushbike
motorbike motorcycle
scooter moped vespa
boat ship vessel
drive drove driven
ride rode ridden
licence license
petrol gasoline fuel gas
carpark parking
traffic congestion gridlock
highway motorway freeway expressway interstate
pavement sidewalk
windscreen windshield
indicator blinker
accident crash collision prang
travel trip journey voyage
excursion outing daytrip
abroad overseas
luggage baggage suitcase
accommodation lodging
beach seaside
sea ocean
caravan motorhome camper campervan rv
satnav gps
van minivan minibus
jeep suv
flyover overpass
bonnet hood
trunk boot
ticket fare
hotel motel inn
tour sightseeing
tourist holidaymaker vacationer
camp campsite campground
island isle
route itinerary
jetlag jet-lag
helicopter chopper heli
yacht sailboat
petersburg spb piter leningrad

# ---------------------------------------------------------------- phones, computers, gadgets
phone mobile cellphone smartphone handset cell iphone telephone
text sms
message msg
email e-mail
mail post
postcode zipcode zip
computer pc comp laptop desktop macbook chromebook
tablet ipad
app application
website site webpage homepage
password passcode pin
username login
instagram insta ig
facebook fb
programming coding
tech technology
gadget device
subscription sub subscribe
headphones earphones earbuds headset airpods cans
screen display monitor
router modem
smartwatch fitbit
charger adapter
camera cam webcam
photo photograph pic picture snap snapshot photography photographer
tv television telly tele
console playstation xbox ps4 ps5
game videogame gaming gamer
cable cord wire
voicemail answerphone
emoji emoticon smiley
usb pendrive flashdrive
malware virus spyware
harddrive hdd ssd
chat messenger
ringtone ringer
screenshot screengrab
trackpad touchpad

# ---------------------------------------------------------------- tv, films, books, games, music
film movie flick
cinema movies
theatre theater playhouse
series serial
sitcom comedy
documentary docuseries
cartoon toon
book novel paperback hardback hardcover
ebook e-book kindle ereader
audiobook audible
podcast pod
magazine mag
newspaper paper
author writer novelist
poetry poem verse poet
bookshop bookstore
jigsaw puzzle
music musician
song tune
album lp
singer vocalist sing sang sung
drum drumkit percussion drummer
violin fiddle violinist
cello violoncello cellist
saxophone sax
ukulele uke
piano pianist keyboard
guitar guitarist
bass bassist
concert gig
festival fest
choir chorus
orchestra philharmonic
rap hiphop
dj deejay
episode ep
fan enthusiast buff aficionado
hobby pastime
drawing sketch doodle
art artwork
woodwork woodworking carpentry joinery
dance dancer
ballet ballerina
blog blogger
vlogger youtuber youtube yt
comic manga

# ---------------------------------------------------------------- sport and fitness
gym gymnasium
workout exercise
jog run ran jogger runner
swim swimmer swam swum
football soccer footie footy
basketball hoops bball
hike trek ramble hillwalking hiker
climbing bouldering climber
ski skier
surf surfer
golf golfer
match fixture
trainers sneakers kicks
tournament championship competition contest
referee ref umpire
stadium arena
weightlifting powerlifting
wrestling wrestler
skating skater
rowing rower
sailing sailor
athlete sportsman sportswoman
team squad
billiards snooker
gambling betting gamble
lottery lotto
carpool rideshare

# ---------------------------------------------------------------- clothes
clothes clothing garment attire outfit apparel togs
trousers pants slacks chinos
underwear pants knickers undies briefs boxers underpants
jumper sweater pullover jersey
hoodie hoody sweatshirt
jacket coat overcoat
shoe footwear
tshirt t-shirt tee
dress gown frock
tuxedo tux
hat cap beanie
glove mitten
pyjamas pajamas pjs jammies
swimsuit swimwear cossie bathers
jewellery jewelry bling
necklace pendant
handbag purse bag
jeans denim
waistcoat vest
bathrobe robe
wellies wellingtons gumboots rainboots
anorak parka windbreaker cagoule
nappy diaper
dummy pacifier binky soother
pram stroller buggy pushchair perambulator
cot crib
sandals flipflops flip-flops thongs
heels stilettos
tie necktie
scarf muffler
raincoat mackintosh mac
bracelet bangle
tights pantyhose nylons
undershirt singlet

# ---------------------------------------------------------------- documents, contacts, names
id identification
document paperwork
surname lastname
forename firstname
nickname moniker
mister mr
birthday bday
born birth

# ---------------------------------------------------------------- British / American spellings
colour color
flavour flavor
behaviour behavior
humour humor
honour honor
labour labor
rumour rumor
harbour harbor
odour odor
favour favor
armour armor
realise realize
recognise recognize
apologise apologize
analyse analyze
criticise criticize
memorise memorize
socialise socialize
prioritise prioritize
sympathise sympathize
minimise minimize
maximise maximize
emphasise emphasize
summarise summarize
metre meter
litre liter
kilometre kilometer km
centimetre centimeter cm
millimetre millimeter mm
fibre fiber
practise practice
defence defense
offence offense
kerb curb
grey gray
cosy cozy
sceptical skeptical sceptic skeptic
judgement judgment
axe ax
plough plow
omelette omelet
catalogue catalog
dialogue dialog
aluminium aluminum
paediatric pediatric
orthopaedic orthopedic
anaesthetic anesthetic anaesthesia anesthesia
oestrogen estrogen
haemorrhoids hemorrhoids piles
leukaemia leukemia
oesophagus esophagus
foetus fetus
caesarean cesarean
manoeuvre maneuver
draught draft
gaol jail prison
skilful skillful
woollen woolen
gynaecology gynecology
archaeology archeology

# ---------------------------------------------------------------- first names and their short forms
alexander alex alec xander sasha
alexandra alex lexi sasha
andrew andy
anthony tony
benjamin ben benny benji
catherine katherine kathryn kate katie kathy cathy kat
christopher chris topher
christine christina chris chrissy tina
daniel dan danny
david dave davey
edward ed eddie ted teddy ned
elizabeth liz lizzie lizzy beth betty betsy eliza libby
emily emmy
frederick fred freddie freddy
gregory greg
henry harry hal hank
james jim jimmy jamie
jennifer jen jenny
jessica jess jessie
john johnny jack
jonathan jon jonny
joseph joe joey
joshua josh
margaret maggie meg peggy madge
matthew matt matty
michael mike mikey mick mickey
nicholas nick nicky
patricia patty trish tricia
peter pete
philip phil pip
rebecca becky becca
richard rick ricky richie
robert bob bobby robbie bert
samuel sam sammy
samantha sam
stephen steven steve stevie
susan susie suzy
thomas tom tommy
timothy tim timmy
victoria vicky tori vika
abigail abby abbie gail
deborah debbie deb
jacqueline jackie jacqui
kimberly kim
lawrence larry laurie
leonard leo lenny len
nathaniel nathan nate nat
olivia liv livvy
pamela pam
raymond ray
ronald ron ronnie
stanley stan
theodore theo ted teddy
valentina val
vincent vince vinny
zachary zach zack
elena yelena ellie lena
eleanor ellie nell nellie
isabella isabel bella izzy
charlotte charlie lottie
charles charlie chas
gabriel gabe
gabrielle gabby gaby
jacob jake
kenneth ken kenny
douglas doug
gerald gerry jerry
harold harry
ivan vanya
dmitry dmitri dima
mikhail misha
sergey sergei serge
vladimir vlad volodya
tatiana tatyana tanya
natalia natalya natasha
anastasia nastya stacy stacey
ekaterina yekaterina katya
svetlana sveta lana
olga olya
yuri yura
william billy liam
nicole nikki
frances fran frankie
harriet hattie
josephine jo josie
louise lou
madeleine maddie
nicola nicky
penelope penny
rachel rach
rosemary rosie
sophia sophie
teresa theresa tess tessa
walter walt wally
amanda mandy
alfred alfie alf
archibald archie
arthur artie
dominic dom
geoffrey jeffrey jeff geoff
oliver ollie olly
patrick paddy
reginald reg reggie
sebastian seb
terence terry
mohammed muhammad mohammad mohamed
ahmed ahmad
evgeny yevgeny zhenya
evgenia yevgenia zhenya
konstantin kostya
nikolai nikolay kolya
pavel pasha
andrei andrey andryusha
alexei alexey alyosha lyosha
maria mariya masha
irina ira
ludmila lyudmila lyuda mila
galina galya
nadezhda nadya
lyubov lyuba
boris borya
grigory grisha
anna anya annie
daria darya dasha
ksenia kseniya ksyusha
polina polya
yulia julia yulya
sofia sonya

# ---------------------------------------------------------------- likes, dislikes, feelings, personality
love adore
hate loathe detest despise dislike abhor
enjoy relish
afraid scared frightened terrified
fear phobia fright dread
happy glad cheerful joyful
sad unhappy miserable gloomy glum
angry mad furious irate anger
annoyed irritated irked
shy timid bashful
extrovert extravert extroverted outgoing sociable
lonely isolated
bored boring dull tedious
excited thrilled
nervous jittery edgy
worried concerned
calm relaxed chill
lazy idle
embarrassed ashamed
jealous envious jealousy envy
grateful thankful
confident self-assured
proud pride
hungry hunger starving famished peckish
thirsty thirst parched
upset distressed
stubborn obstinate
funny hilarious
clever smart intelligent bright
stupid dumb silly
rude impolite
polite courteous
honest truthful
messy untidy
tidy neat
picky fussy
chuffed pleased delighted
dodgy shady sketchy
posh upmarket
naff tacky
gobsmacked astonished amazed stunned

# ---------------------------------------------------------------- times, schedules, events
january jan
february feb
march mar
april apr
august aug
september sept sep
october oct
november nov
december dec
monday mon
tuesday tues tue
thursday thurs thur thu
autumn fall
summer summertime
winter wintertime
spring springtime
noon midday
afternoon arvo
dawn sunrise daybreak
dusk sunset twilight
night nighttime
weekday workday
fortnight fortnightly biweekly
calendar diary planner agenda
event occasion
party celebration
christmas xmas
funeral burial memorial
grief mourning bereavement
death die dead deceased
routine habit
christening baptism
gift present prezzie

# ---------------------------------------------------------------- household things, kitchen, everyday objects
saucepan pan pot
skillet frypan
mug cup
blender liquidiser liquidizer
foil tinfoil
bucket pail
ladder stepladder
umbrella brolly
sunglasses shades sunnies
tissue kleenex hanky handkerchief
ketchup catsup
mayo mayonnaise
marge margarine
chilli chili chile
avocado avo
corn maize sweetcorn
tofu beancurd
soup broth
stew casserole hotpot
muffin cupcake
sultana raisin
kebab doner shawarma gyro
hotdog frankfurter wiener
champagne bubbly prosecco cava
decaf decaffeinated
cocoa cacao
sparkling carbonated
keto ketogenic
pescatarian pescetarian
cookery culinary cuisine
bake baker bakery
farmer farm
smoke smoker cigarette cig ciggie
vape vaper e-cigarette
weed cannabis marijuana ganja pot
ad advert advertisement commercial
info information
lab laboratory
mic microphone
admin administration administrator
limo limousine
deli delicatessen
pro professional
convo conversation
demo demonstration
sedan saloon
convertible cabriolet
ute pickup
bartender barman barmaid barkeeper
bouncer doorman
housewife homemaker househusband
tradesman tradie
shopkeeper storekeeper
landscaper groundskeeper
eldest firstborn
affair fling
cheat unfaithful infidelity adultery
pee urinate wee
poo poop
dizzy lightheaded giddy vertigo
shortsighted nearsighted myopic myopia
longsighted farsighted
colourblind colorblind
hayfever rhinitis
seizure convulsion
dementia alzheimers alzheimer
rehab rehabilitation
cancer carcinoma malignancy
germ microbe bacteria
eat ate eaten
drink drank
write wrote written
speak spoke spoken
wear wore worn
grow grew grown
fall fell fallen
lose lost loss
catch caught
steal stole stolen theft
choose chose chosen choice
forget forgot forgotten
fight fought
freeze froze frozen
knife knives
lend lent
win won victory
bite bitten
sting stung

# ---------------------------------------------------------------- places, nature, weather, religion, hobbies, tools
uk britain
usa america
netherlands holland
muslim moslem
religion faith
church chapel
mosque masjid
synagogue shul
atheist nonbeliever
birdwatching birdwatcher birder
astronomy stargazing
pottery ceramics
genealogy ancestry
embroidery needlework
scifi sci-fi
whodunnit whodunit
memoir autobiography
spanner wrench
glue adhesive
thumbtack pushpin
lawnmower mower
hose hosepipe
wheelbarrow barrow
greenhouse glasshouse
gearbox transmission
rain rainfall downpour
snow snowfall
storm thunderstorm
fog mist
humid muggy
windy breezy blustery
woods forest woodland
coast coastline shore
hometown birthplace
cramp spasm
swelling inflammation
wart verruca
std sti
`
